package io.lagoon.spark.functions;

import org.apache.spark.sql.connector.catalog.functions.BoundFunction;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code paimon_bucket(numBuckets, keyTypes, key1, key2, ...)}: the fixed bucket Paimon assigns
 * to a key. Writes of primary-key tables cluster rows by it. Not named {@code bucket}, because
 * Spark reads any transform of that name as its own bucket transform with column arguments only.
 *
 * <p>{@code paimon_bucket_task(...)}, same arguments: an INT that Spark's hash partitioning into
 * {@code numBuckets} partitions sends to partition number {@code bucket} (see
 * {@link BucketTaskKeys}). Clustering by the bucket itself hashes bucket numbers, so several
 * buckets often share a task while other tasks idle; clustering by this gives every bucket its
 * own task.
 */
public final class PaimonBucketFunction implements UnboundFunction {
  public static final String NAME = "paimon_bucket";
  public static final String TASK_NAME = "paimon_bucket_task";

  private final boolean task;

  /** {@code paimon_bucket}. */
  public PaimonBucketFunction() {
    this(false);
  }

  private PaimonBucketFunction(boolean task) {
    this.task = task;
  }

  /** {@code paimon_bucket_task}. */
  public static PaimonBucketFunction task() {
    return new PaimonBucketFunction(true);
  }

  @Override
  public String name() {
    return task ? TASK_NAME : NAME;
  }

  @Override
  public BoundFunction bind(StructType inputType) {
    StructField[] in = inputType.fields();
    if (in.length < 3) throw usage("it needs at least 3 arguments, got " + in.length);
    if (!(in[0].dataType() instanceof IntegerType)) {
      throw usage("numBuckets must be an INT, got " + in[0].dataType().simpleString());
    }
    if (!(in[1].dataType() instanceof StringType)) {
      throw usage("keyTypes must be a STRING, got " + in[1].dataType().simpleString());
    }
    DataType[] keys = new DataType[in.length - 2];
    for (int i = 0; i < keys.length; i++) keys[i] = in[i + 2].dataType();
    return new BoundPaimonBucket(keys, task);
  }

  @Override
  public String description() {
    if (task) {
      return TASK_NAME + "(numBuckets, keyTypes, key...) - an INT that Spark's hash partitioning into numBuckets "
          + "partitions sends to the partition numbered like the key's Paimon bucket";
    }
    return NAME + "(numBuckets, keyTypes, key...) - the bucket Paimon assigns to the key columns of a fixed-bucket "
        + "table; keyTypes lists the key's exact Paimon types as a JSON array, e.g. '[\"INT\",\"TIMESTAMP(3)\"]'";
  }

  /** Refusals are UnsupportedOperationException, which is how Spark expects bind to say "no such signature". */
  private UnsupportedOperationException usage(String why) {
    return new UnsupportedOperationException("Function " + name() + ": " + why + "; usage: " + name()
        + "(numBuckets INT, keyTypes STRING, key1, key2, ...)");
  }
}
