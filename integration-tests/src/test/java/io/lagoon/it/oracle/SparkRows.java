package io.lagoon.it.oracle;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

import scala.collection.JavaConverters;

/**
 * Renders Spark rows ({@link Row}, external/Java representation) in exactly the canonical format of
 * {@link PaimonOracle} (see its class javadoc), so a row read through Spark (Lagoon or Paimon 0.9's
 * Spark catalog) can be compared string for string with a row read by the Paimon oracle.
 *
 * <p>Spark-specific mapping: TIMESTAMP ({@link java.sql.Timestamp} or {@link Instant} when
 * {@code spark.sql.datetime.java8API.enabled}) renders as the instant's UTC wall clock;
 * TIMESTAMP_NTZ ({@link LocalDateTime}) as its wall clock; DATE ({@link java.sql.Date} or
 * {@link LocalDate}) ISO; DECIMAL as {@link BigDecimal#toPlainString()} at the type's scale; BINARY
 * as lower-case hex; arrays, maps (entries sorted by rendered key) and structs recursively.
 *
 * <p>Depends on Spark and the JDK only (no Paimon class): usable in the Paimon 0.9 test JVM too.
 */
public final class SparkRows {

    private SparkRows() {}

    /** Renders one row; {@code schema} gives the column names and types. */
    public static String render(Row row, StructType schema) {
        StructField[] fields = schema.fields();
        if (row.size() != fields.length) {
            throw new IllegalArgumentException("Row has " + row.size() + " values, schema " + fields.length);
        }
        List<String> names = new ArrayList<>(fields.length);
        List<String> values = new ArrayList<>(fields.length);
        for (int i = 0; i < fields.length; i++) {
            names.add(fields[i].name());
            values.add(renderValue(row.isNullAt(i) ? null : row.get(i), fields[i].dataType()));
        }
        return CanonicalValues.fields(names, values);
    }

    /** Collects the dataset and renders every row; sorted in String order. */
    public static List<String> renderAll(Dataset<Row> dataset) {
        StructType schema = dataset.schema();
        List<String> out = new ArrayList<>();
        for (Row row : dataset.collectAsList()) {
            out.add(render(row, schema));
        }
        Collections.sort(out);
        return out;
    }

    /** Column names of the dataset in order. */
    public static List<String> columnNames(Dataset<Row> dataset) {
        return Arrays.asList(dataset.schema().fieldNames());
    }

    /** Renders one external Spark value of the given type. */
    public static String renderValue(Object v, DataType type) {
        if (v == null || type instanceof NullType) {
            return CanonicalValues.NULL;
        }
        if (type instanceof BooleanType || type instanceof ByteType || type instanceof ShortType
                || type instanceof IntegerType || type instanceof LongType) {
            return v.toString();
        } else if (type instanceof FloatType) {
            return CanonicalValues.floatValue(((Number) v).floatValue());
        } else if (type instanceof DoubleType) {
            return CanonicalValues.doubleValue(((Number) v).doubleValue());
        } else if (type instanceof DecimalType) {
            BigDecimal bd = v instanceof org.apache.spark.sql.types.Decimal
                    ? ((org.apache.spark.sql.types.Decimal) v).toJavaBigDecimal() : (BigDecimal) v;
            return CanonicalValues.decimal(bd.setScale(((DecimalType) type).scale()));
        } else if (type instanceof StringType || type instanceof CharType || type instanceof VarcharType) {
            return v.toString();
        } else if (type instanceof BinaryType) {
            return CanonicalValues.hex((byte[]) v);
        } else if (type instanceof DateType) {
            if (v instanceof java.sql.Date) {
                return CanonicalValues.date(((java.sql.Date) v).toLocalDate());
            }
            return CanonicalValues.date((LocalDate) v);
        } else if (type instanceof TimestampType) {
            if (v instanceof java.sql.Timestamp) {
                return CanonicalValues.instant(((java.sql.Timestamp) v).toInstant());
            }
            return CanonicalValues.instant((Instant) v);
        } else if (type instanceof TimestampNTZType) {
            return CanonicalValues.timestamp((LocalDateTime) v);
        } else if (type instanceof ArrayType) {
            DataType elementType = ((ArrayType) type).elementType();
            List<String> elements = new ArrayList<>();
            for (Object e : asList(v)) {
                elements.add(renderValue(e, elementType));
            }
            return CanonicalValues.array(elements);
        } else if (type instanceof MapType) {
            MapType mt = (MapType) type;
            List<Map.Entry<String, String>> entries = new ArrayList<>();
            for (Map.Entry<?, ?> e : asMap(v).entrySet()) {
                entries.add(new AbstractMap.SimpleImmutableEntry<>(
                        renderValue(e.getKey(), mt.keyType()), renderValue(e.getValue(), mt.valueType())));
            }
            return CanonicalValues.map(entries);
        } else if (type instanceof StructType) {
            StructType st = (StructType) type;
            Row nested = (Row) v;
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < st.fields().length; i++) {
                names.add(st.fields()[i].name());
                values.add(renderValue(nested.isNullAt(i) ? null : nested.get(i), st.fields()[i].dataType()));
            }
            return CanonicalValues.struct(names, values);
        }
        throw new UnsupportedOperationException("Cannot render Spark type " + type.simpleString());
    }

    private static List<?> asList(Object v) {
        if (v instanceof scala.collection.Seq) {
            return JavaConverters.seqAsJavaListConverter((scala.collection.Seq<?>) v).asJava();
        } else if (v instanceof List) {
            return (List<?>) v;
        } else if (v instanceof Object[]) {
            return Arrays.asList((Object[]) v);
        }
        throw new IllegalArgumentException("Not an array value: " + v.getClass());
    }

    private static Map<?, ?> asMap(Object v) {
        if (v instanceof scala.collection.Map) {
            return JavaConverters.mapAsJavaMapConverter((scala.collection.Map<?, ?>) v).asJava();
        } else if (v instanceof Map) {
            return (Map<?, ?>) v;
        }
        throw new IllegalArgumentException("Not a map value: " + v.getClass());
    }
}
