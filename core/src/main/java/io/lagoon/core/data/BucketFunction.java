package io.lagoon.core.data;

import io.lagoon.core.types.PaimonType;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Paimon's default fixed-bucket assignment: the Murmur hash of the bucket-key row encoded as a +I
 * BinaryRow with the exact key types (precision included), then {@code Math.abs(hash % numBuckets)}
 * with Java's truncating remainder.
 */
public final class BucketFunction {
  private BucketFunction() {}

  public static int bucket(InternalRow keyRow, List<PaimonType> keyTypes, int numBuckets) {
    return bucket(BinaryRows.hash(keyRow, keyTypes), numBuckets);
  }

  public static int bucket(int hash, int numBuckets) {
    if (numBuckets <= 0) throw new IllegalArgumentException("numBuckets must be positive, got " + numBuckets);
    return Math.abs(hash % numBuckets);
  }
}
