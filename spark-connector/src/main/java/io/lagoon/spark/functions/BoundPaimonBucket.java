package io.lagoon.spark.functions;

import io.lagoon.core.data.BinaryRowEncoder;
import io.lagoon.core.data.BucketFunction;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.functions.ScalarFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@link PaimonBucketFunction} bound to its key columns' Spark types. The key types text is a
 * constant in practice, so it is parsed and checked once and reused while it stays the same.
 */
final class BoundPaimonBucket implements ScalarFunction<Integer> {
  private final DataType[] keySparkTypes;
  /** Whether it returns the bucket's task key ({@code paimon_bucket_task}) rather than the bucket. */
  private final boolean task;
  private transient volatile Parsed parsed;

  /** The last key types text seen, what it parsed to, and an encoder of the key columns per thread. */
  private static final class Parsed {
    final UTF8String text;
    final List<PaimonType> types;
    final ThreadLocal<BinaryRowEncoder> encoders;

    Parsed(UTF8String text, List<PaimonType> types) {
      this.text = text;
      this.types = types;
      int[] keyPositions = new int[types.size()];
      for (int i = 0; i < keyPositions.length; i++) keyPositions[i] = i + 2; // after numBuckets and keyTypes
      this.encoders = ThreadLocal.withInitial(() -> new BinaryRowEncoder(types, keyPositions));
    }
  }

  BoundPaimonBucket(DataType[] keySparkTypes, boolean task) {
    this.keySparkTypes = keySparkTypes;
    this.task = task;
  }

  @Override
  public DataType[] inputTypes() {
    DataType[] out = new DataType[keySparkTypes.length + 2];
    out[0] = DataTypes.IntegerType;
    out[1] = DataTypes.StringType;
    System.arraycopy(keySparkTypes, 0, out, 2, keySparkTypes.length);
    return out;
  }

  @Override
  public DataType resultType() {
    return DataTypes.IntegerType;
  }

  @Override
  public String name() {
    return task ? PaimonBucketFunction.TASK_NAME : PaimonBucketFunction.NAME;
  }

  @Override
  public String canonicalName() {
    return "lagoon." + name();
  }

  /** Spark prints the function object in plans: its name reads better than a class and hash. */
  @Override
  public String toString() {
    return name();
  }

  @Override
  public Integer produceResult(InternalRow input) {
    if (input.isNullAt(0) || input.isNullAt(1)) return null;
    int numBuckets = input.getInt(0);
    // The key columns are hashed where they sit in the arguments: no copy, no boxing.
    int hash = parsed(input.getUTF8String(1)).encoders.get().hash(input);
    int bucket = BucketFunction.bucket(hash, numBuckets);
    return task ? BucketTaskKeys.keyOf(numBuckets, bucket) : bucket;
  }

  private Parsed parsed(UTF8String text) {
    Parsed p = parsed;
    if (p == null || !p.text.equals(text)) {
      p = new Parsed(text.clone(), check(BucketKeyTypes.decode(text.toString())));
      parsed = p;
    }
    return p;
  }

  /** The hash reads each value as its Paimon type says, so the Spark values must be of that type. */
  private List<PaimonType> check(List<PaimonType> types) {
    if (types.size() != keySparkTypes.length) {
      throw new IllegalArgumentException(name() + ": keyTypes lists " + types.size()
          + " types for " + keySparkTypes.length + " key columns");
    }
    for (int i = 0; i < types.size(); i++) {
      DataType expected = SparkTypes.toSpark(types.get(i));
      if (!expected.sameType(keySparkTypes[i])) {
        throw new IllegalArgumentException(name() + ": key column " + (i + 1) + " is "
            + keySparkTypes[i].simpleString() + " but keyTypes says " + types.get(i) + " (a Spark "
            + expected.simpleString() + ")");
      }
    }
    return types;
  }
}
