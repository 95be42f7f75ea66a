package io.lagoon.core.dynamicbucket;

import io.lagoon.core.commit.CommitBase;
import io.lagoon.core.deletionvectors.DeletionVectorMaintainer;
import io.lagoon.core.manifest.BucketId;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;

/**
 * The buckets a write into a dynamic-bucket table gave its new keys, which the operation that
 * commits the write's files records in the HASH index ({@link HashIndexUpdate}).
 */
public final class KeyAssignments {
  private final Map<BucketId, int[]> fresh = new LinkedHashMap<>();
  private final long writeBase;

  /** @param writeBase the snapshot whose index the write assigned buckets on, -1 for none */
  public KeyAssignments(long writeBase) {
    this.writeBase = writeBase;
  }

  /** Adds one task's new key hashes (tasks assign disjoint keys). */
  public KeyAssignments add(Map<BucketId, int[]> hashes) {
    for (Map.Entry<BucketId, int[]> e : hashes.entrySet()) {
      int[] had = fresh.get(e.getKey());
      fresh.put(e.getKey(), had == null ? e.getValue() : HashIndexUpdate.union(had, e.getValue()));
    }
    return this;
  }

  public boolean isEmpty() {
    return fresh.isEmpty();
  }

  /**
   * Plans the index change on the attempt's base into {@code index}.
   *
   * @param dropped partitions whose index goes whole (an overwrite), else null
   */
  public void apply(CommitBase base, List<Path> written, Predicate<byte[]> dropped, DeletionVectorMaintainer index)
      throws IOException {
    HashIndexUpdate.Change change = HashIndexUpdate.plan(base, fresh, writeBase, dropped, written);
    index.swapOthers(change.removed, change.added);
  }
}
