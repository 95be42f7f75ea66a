package io.lagoon.core.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replay order and bucket counts of postponed rows, on manifest entries alone. */
class PostponedBucketPlanTest {
  private static final byte[] P1 = {1};
  private static final byte[] P2 = {2};
  private static final byte[] P3 = {3};

  private static ManifestEntry file(String name, byte[] partition, int bucket, int total, Long created) {
    DataFileMeta f = new DataFileMeta(name, 10, 1, new byte[0], new byte[0], null, null, -1, -1, 0, 0, List.of(), created,
        0L, null, 0, null, null);
    return new ManifestEntry(FileKind.ADD, partition, bucket, total, f);
  }

  private static List<String> names(PostponedBucketPlan plan) {
    List<String> out = new ArrayList<>();
    for (PostponedBucketPlan.File f : plan.files()) out.add(f.entry().file.fileName + ":" + f.buckets() + "@" + f.order());
    return out;
  }

  @Test
  void replaysByCreationTimeThenManifestOrderAndKeepsEachPartitionsBucketCount() {
    List<ManifestEntry> live = List.of(
        file("late", P1, -2, -2, 300L),
        file("real-0", P1, 0, 4, 1L),
        file("tie-a", P1, -2, -2, 200L),
        file("tie-b", P2, -2, -2, 200L),
        file("early", P2, -2, -2, 100L),
        file("real-p3", P3, 1, 2, 5L),
        file("other", P3, -2, -2, 50L));
    PostponedBucketPlan plan = PostponedBucketPlan.of("t", live, e -> true, 3);
    // P1 keeps its 4 buckets, P2 has none and gets the default, P3 keeps 2.
    assertEquals(List.of("other:2@0", "early:3@1", "tie-a:4@2", "tie-b:3@3", "late:4@4"), names(plan));
    assertEquals(5, plan.entries().size());
  }

  @Test
  void takesOnlySelectedPartitionsAndNothingWithoutPostponedFiles() {
    List<ManifestEntry> live = List.of(file("a", P1, -2, -2, 1L), file("b", P2, -2, -2, 2L), file("r", P1, 0, 1, 0L));
    PostponedBucketPlan plan = PostponedBucketPlan.of("t", live, e -> e.partition[0] == 2, 1);
    assertEquals(List.of("b:1@0"), names(plan));
    assertTrue(PostponedBucketPlan.of("t", List.of(file("r", P1, 0, 1, 0L)), e -> true, 1).isEmpty());
  }

  @Test
  void refusesAPartitionWithTwoBucketCounts() {
    List<ManifestEntry> live = List.of(file("a", P1, -2, -2, 1L), file("r0", P1, 0, 2, 0L), file("r1", P1, 1, 3, 0L));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> PostponedBucketPlan.of("db.t", live, x -> true, 1));
    assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains("2") && e.getMessage().contains("3"), e.getMessage());
  }
}
