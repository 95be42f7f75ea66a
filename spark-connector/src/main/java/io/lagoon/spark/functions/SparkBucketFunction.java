package io.lagoon.spark.functions;

import io.lagoon.core.data.BinaryRowEncoder;
import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code bucket(numBuckets, column)}: what Spark looks up to understand a scan's reported
 * {@code bucket(N, column)} transform (storage-partitioned joins): Paimon's bucket of a one-column
 * key. Only types whose Spark type fixes Paimon's layout bind (integers, floating point, DECIMAL,
 * STRING, DATE, BOOLEAN, BINARY), and the canonical name carries the type, so two tables only
 * count as bucketed alike when their keys hash alike (TIMESTAMP(3) and TIMESTAMP(6) keys, which
 * Spark sees as one type, never bind).
 */
public final class SparkBucketFunction implements UnboundFunction {
  public static final String NAME = "bucket";

  @Override
  public String name() {
    return NAME;
  }

  /** The Paimon type a Spark type stands for unambiguously, or null. */
  public static PaimonType paimonType(DataType t) {
    if (t == DataTypes.IntegerType) return PaimonType.of(TypeRoot.INT);
    if (t == DataTypes.LongType) return PaimonType.of(TypeRoot.BIGINT);
    if (t == DataTypes.ShortType) return PaimonType.of(TypeRoot.SMALLINT);
    if (t == DataTypes.ByteType) return PaimonType.of(TypeRoot.TINYINT);
    if (t == DataTypes.BooleanType) return PaimonType.of(TypeRoot.BOOLEAN);
    if (t == DataTypes.DoubleType) return PaimonType.of(TypeRoot.DOUBLE);
    if (t == DataTypes.FloatType) return PaimonType.of(TypeRoot.FLOAT);
    if (t == DataTypes.DateType) return PaimonType.of(TypeRoot.DATE);
    if (t == DataTypes.StringType) return PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE);
    if (t == DataTypes.BinaryType) return PaimonType.withLength(TypeRoot.VARBINARY, Integer.MAX_VALUE);
    if (t instanceof DecimalType) {
      return PaimonType.decimal(((DecimalType) t).precision(), ((DecimalType) t).scale());
    }
    return null;
  }

  @Override
  public BoundFunction bind(StructType inputType) {
    StructField[] in = inputType.fields();
    if (in.length != 2 || in[0].dataType() != DataTypes.IntegerType) {
      throw new UnsupportedOperationException("Function bucket(numBuckets INT, column): got " + inputType.simpleString());
    }
    PaimonType type = paimonType(in[1].dataType());
    if (type == null) {
      throw new UnsupportedOperationException("Function bucket: a " + in[1].dataType().simpleString()
          + " column does not tell Paimon's key layout; use paimon_bucket with the exact key types");
    }
    return new Bound(in[1].dataType(), type);
  }

  @Override
  public String description() {
    return NAME + "(numBuckets, column) - the bucket Paimon assigns to a one-column key of a fixed-bucket table";
  }

  private static final class Bound implements ScalarFunction<Integer> {
    private final DataType sparkType;
    private final PaimonType type;
    private transient ThreadLocal<BinaryRowEncoder> encoders;

    Bound(DataType sparkType, PaimonType type) {
      this.sparkType = sparkType;
      this.type = type;
    }

    @Override
    public DataType[] inputTypes() {
      return new DataType[] {DataTypes.IntegerType, sparkType};
    }

    @Override
    public DataType resultType() {
      return DataTypes.IntegerType;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String canonicalName() {
      return "lagoon.bucket(" + type + ")";
    }

    @Override
    public Integer produceResult(InternalRow input) {
      if (input.isNullAt(0)) return null;
      if (encoders == null) encoders = ThreadLocal.withInitial(() -> new BinaryRowEncoder(List.of(type), new int[] {1}));
      return BucketFunction.bucket(encoders.get().hash(input), input.getInt(0));
    }
  }
}
