package io.lagoon.core.types;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

/**
 * Maps Paimon types to Spark's and back. Spark TIMESTAMP is Paimon TIMESTAMP(6) WITH LOCAL TIME
 * ZONE, TIMESTAMP_NTZ is TIMESTAMP(6); CHAR/VARCHAR lengths travel in Spark's char/varchar field
 * metadata ({@link #CHAR_VARCHAR_KEY}) so Spark keeps enforcing them.
 */
public final class SparkTypes {
  /** The metadata key Spark uses for the original CHAR/VARCHAR type of a string column. */
  public static final String CHAR_VARCHAR_KEY = "__CHAR_VARCHAR_TYPE_STRING";
  /** Parquet field id, as Spark's Parquet writer reads it from field metadata. */
  public static final String PARQUET_FIELD_ID_KEY = "parquet.field.id";

  private SparkTypes() {}

  /**
   * The schema Spark plans with: CHAR/VARCHAR as STRING, their declared type kept in the field
   * metadata that Spark reads to check lengths on write and pad CHAR on read.
   */
  public static StructType toSpark(List<DataField> fields) {
    return CharVarcharUtils.replaceCharVarcharWithStringInSchema(toSparkDeclared(fields));
  }

  /** The schema as declared, with CharType/VarcharType, for DESCRIBE and SHOW CREATE TABLE. */
  public static StructType toSparkDeclared(List<DataField> fields) {
    List<StructField> out = new ArrayList<>();
    for (DataField f : fields) {
      StructField sf = new StructField(f.name(), toSparkDeclared(f.type()), f.type().nullable(), Metadata.empty());
      out.add(f.description() == null ? sf : sf.withComment(f.description()));
    }
    return new StructType(out.toArray(new StructField[0]));
  }

  public static StructField toSparkField(DataField f) {
    return toSpark(List.of(f)).fields()[0];
  }

  private static DataType toSparkDeclared(PaimonType t) {
    switch (t.root()) {
      case CHAR: return new CharType(t.length());
      case VARCHAR: return t.length() == PaimonType.MAX_LENGTH ? DataTypes.StringType : new VarcharType(t.length());
      case ARRAY: return DataTypes.createArrayType(toSparkDeclared(t.element()), t.element().nullable());
      case MAP: return DataTypes.createMapType(toSparkDeclared(t.key()), toSparkDeclared(t.value()), t.value().nullable());
      case ROW: return toSparkDeclared(t.fields());
      default: return toSpark(t);
    }
  }

  public static DataType toSpark(PaimonType t) {
    switch (t.root()) {
      case BOOLEAN: return DataTypes.BooleanType;
      case TINYINT: return DataTypes.ByteType;
      case SMALLINT: return DataTypes.ShortType;
      case INT: return DataTypes.IntegerType;
      case BIGINT: return DataTypes.LongType;
      case FLOAT: return DataTypes.FloatType;
      case DOUBLE: return DataTypes.DoubleType;
      case DECIMAL: return DataTypes.createDecimalType(t.precision(), t.scale());
      case CHAR: case VARCHAR: return DataTypes.StringType;
      case BINARY: case VARBINARY: return DataTypes.BinaryType;
      case DATE: return DataTypes.DateType;
      case TIMESTAMP: return DataTypes.TimestampNTZType;
      case TIMESTAMP_LTZ: return DataTypes.TimestampType;
      case ARRAY: return DataTypes.createArrayType(toSpark(t.element()), t.element().nullable());
      case MULTISET: return DataTypes.createMapType(toSpark(t.element()), DataTypes.IntegerType, false);
      case MAP: return DataTypes.createMapType(toSpark(t.key()), toSpark(t.value()), t.value().nullable());
      case ROW: return toSpark(t.fields());
      default:
        throw new UnsupportedOperationException("Paimon type " + t + " has no Spark counterpart");
    }
  }

  /** Converts a Spark schema to Paimon fields, assigning ids depth-first from {@code nextId}. */
  public static List<DataField> fromSpark(StructType schema, AtomicInteger highestId) {
    List<DataField> out = new ArrayList<>();
    for (StructField f : schema.fields()) {
      int id = highestId.incrementAndGet();
      PaimonType t = fromSpark(f.dataType(), f.nullable(), f.metadata(), f.name(), highestId);
      String comment = f.getComment().isDefined() ? f.getComment().get() : null;
      out.add(new DataField(id, f.name(), t, comment));
    }
    return out;
  }

  public static PaimonType fromSpark(DataType dt, boolean nullable, Metadata md, String column, AtomicInteger ids) {
    // Spark hands CHAR/VARCHAR (also nested, e.g. ARRAY<CHAR(3)>) over as STRING and keeps the
    // declared type in the field metadata.
    scala.Option<DataType> declared = md == null ? scala.Option.empty() : CharVarcharUtils.getRawType(md);
    if (declared.isDefined()) return fromSpark(declared.get(), nullable, null, column, ids);
    PaimonType t;
    if (dt instanceof BooleanType) t = PaimonType.of(TypeRoot.BOOLEAN);
    else if (dt instanceof ByteType) t = PaimonType.of(TypeRoot.TINYINT);
    else if (dt instanceof ShortType) t = PaimonType.of(TypeRoot.SMALLINT);
    else if (dt instanceof IntegerType) t = PaimonType.of(TypeRoot.INT);
    else if (dt instanceof LongType) t = PaimonType.of(TypeRoot.BIGINT);
    else if (dt instanceof FloatType) t = PaimonType.of(TypeRoot.FLOAT);
    else if (dt instanceof DoubleType) t = PaimonType.of(TypeRoot.DOUBLE);
    else if (dt instanceof DecimalType) {
      DecimalType d = (DecimalType) dt;
      t = PaimonType.decimal(d.precision(), d.scale());
    } else if (dt instanceof CharType) t = PaimonType.withLength(TypeRoot.CHAR, ((CharType) dt).length());
    else if (dt instanceof VarcharType) t = PaimonType.withLength(TypeRoot.VARCHAR, ((VarcharType) dt).length());
    else if (dt instanceof StringType) t = PaimonType.of(TypeRoot.VARCHAR);
    else if (dt instanceof BinaryType) t = PaimonType.of(TypeRoot.VARBINARY);
    else if (dt instanceof DateType) t = PaimonType.of(TypeRoot.DATE);
    else if (dt instanceof TimestampType) t = PaimonType.timestamp(6, true);
    else if (dt instanceof TimestampNTZType) t = PaimonType.timestamp(6, false);
    else if (dt instanceof ArrayType) {
      ArrayType a = (ArrayType) dt;
      t = PaimonType.array(fromSpark(a.elementType(), a.containsNull(), null, column, ids));
    } else if (dt instanceof MapType) {
      MapType m = (MapType) dt;
      t = PaimonType.map(fromSpark(m.keyType(), false, null, column, ids),
          fromSpark(m.valueType(), m.valueContainsNull(), null, column, ids));
    } else if (dt instanceof StructType) {
      t = PaimonType.row(fromSpark((StructType) dt, ids));
    } else {
      throw new UnsupportedTypeException(column, dt.simpleString());
    }
    return nullable ? t : t.notNull();
  }

  /** Raised for a Spark type that has no Paimon counterpart. */
  public static final class UnsupportedTypeException extends IllegalArgumentException {
    public UnsupportedTypeException(String column, String type) {
      super("Unsupported type " + type + " for column '" + column + "': Lagoon tables support boolean, "
          + "tinyint, smallint, int, bigint, float, double, decimal, string, char, varchar, binary, date, "
          + "timestamp, timestamp_ntz, array, map and struct");
    }
  }
}
