package io.lagoon.core.mergetree.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactRewriterTest {
  @TempDir java.nio.file.Path tmp;

  private static List<String> names(List<DataFileMeta> files) {
    return files.stream().map(f -> f.fileName).sorted().collect(Collectors.toList());
  }

  /** Every record of the outputs, read back from disk, as "id kind v". */
  private static List<String> onDisk(KvTestTable t, List<DataFileMeta> files) throws IOException {
    List<String> out = new ArrayList<>();
    for (DataFileMeta f : files) {
      for (KeyValue kv : t.readBack(0, f)) {
        out.add(kv.key().getInt(0) + KeyValue.kindName(kv.rowKind())
            + (kv.value().isNullAt(1) ? "" : String.valueOf(kv.value().getLong(1))));
      }
    }
    return out;
  }

  /** Outputs on one level must form one sorted run: ascending, non-overlapping key ranges. */
  static void assertOneSortedRun(List<DataFileMeta> files, int level) {
    List<DataFileMeta> sorted = new ArrayList<>(files);
    sorted.sort(Metas.KEYS::compareRange);
    for (int i = 0; i < sorted.size(); i++) {
      assertEquals(level, sorted.get(i).level, sorted.get(i).fileName);
      if (i > 0) {
        int prevMax = Metas.KEYS.maxKey(sorted.get(i - 1)).getInt(0);
        int min = Metas.KEYS.minKey(sorted.get(i)).getInt(0);
        assertTrue(prevMax < min, "overlapping outputs " + sorted.get(i - 1) + " and " + sorted.get(i));
      }
    }
  }

  @Test
  void overlappingLevelZeroRunsMergeKeepingDeletesAboveOlderData() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of());
    DataFileMeta a = t.write(0, 0, t.records(0, 1, "1+10", "2+20", "3+30", "5+50"));
    DataFileMeta b = t.write(0, 0, t.records(0, 10, "2+21", "3-", "4+40"));
    DataFileMeta c = t.write(0, 0, t.records(0, 20, "1-", "4+41", "5+51"));
    CompactRewriter rw = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source);
    CompactResult r = rw.rewrite(3, false, List.of(a, b, c));

    assertEquals(names(List.of(a, b, c)), names(r.before()));
    assertEquals(1, r.after().size());
    DataFileMeta out = r.after().get(0);
    assertEquals(3, out.level);
    assertEquals(1, out.fileSource);
    assertEquals(2L, out.deleteRowCount);
    // The deletes of 1 and 3 survive as -D records: an older level may still hold those keys.
    assertEquals(List.of("1-D", "2+I21", "3-D", "4+I41", "5+I51"), onDisk(t, r.after()));
    assertEquals(1, Metas.KEYS.minKey(out).getInt(0));
    assertEquals(5, Metas.KEYS.maxKey(out).getInt(0));
    assertEquals(10, out.minSequenceNumber); // key 2 from b; the records of a were all superseded
    assertEquals(22, out.maxSequenceNumber);
    assertEquals(t.source.opened, t.source.closed, "every opened file is closed");
  }

  @Test
  void deletesAreDroppedWhenNothingOlderExists() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of());
    DataFileMeta a = t.write(0, 0, t.records(0, 1, "1+10", "2+20", "3+30"));
    DataFileMeta b = t.write(0, 0, t.records(0, 10, "1-", "3-"));
    CompactResult r = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(5, true,
        List.of(a, b));
    assertEquals(List.of("2+I20"), onDisk(t, r.after()));
    assertEquals(0L, r.after().get(0).deleteRowCount);
    // Everything deleted: the inputs go and nothing replaces them.
    DataFileMeta c = t.write(0, 0, t.records(0, 20, "2-"));
    CompactResult gone = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(5, true,
        List.of(r.after().get(0), c));
    assertEquals(2, gone.before().size());
    assertTrue(gone.after().isEmpty());
  }

  @Test
  void aggregationSumsAcrossRuns() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of("merge-engine", "aggregation",
        "fields.v.aggregate-function", "sum"));
    DataFileMeta a = t.write(0, 0, t.records(0, 1, "1+10", "2+20"));
    DataFileMeta b = t.write(0, 0, t.records(0, 10, "1+1", "2+2", "3+3"));
    DataFileMeta c = t.write(0, 1, t.records(0, 0, "2+100"));
    CompactResult r = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(2, false,
        List.of(a, b, c));
    assertEquals(List.of("1+I11", "2+I122", "3+I3"), onDisk(t, r.after()));
  }

  @Test
  void aFileOverlappingNothingIsUpgradedInPlace() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of());
    DataFileMeta alone = t.write(0, 0, t.records(0, 1, "1+10", "2+20", "3-"));
    DataFileMeta b = t.write(0, 0, t.records(0, 10, "10+100", "12+120"));
    DataFileMeta c = t.write(0, 0, t.records(0, 20, "11+110", "12+121"));
    CompactResult r = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(4, false,
        List.of(alone, b, c));
    assertEquals(names(List.of(alone, b, c)), names(r.before()));
    assertEquals(2, r.after().size());
    DataFileMeta upgraded = r.after().stream().filter(f -> f.fileName.equals(alone.fileName)).findFirst().orElseThrow();
    assertEquals(4, upgraded.level);
    assertEquals(alone.fileSize, upgraded.fileSize);
    assertEquals(alone.maxSequenceNumber, upgraded.maxSequenceNumber);
    assertEquals(List.of(), names(r.newFiles()).stream().filter(n -> n.equals(alone.fileName)).collect(Collectors.toList()));
    assertEquals(1, r.newFiles().size());
    assertEquals(List.of("10+I100", "11+I110", "12+I121"), onDisk(t, r.newFiles()));
    assertOneSortedRun(r.after(), 4);
    assertTrue(t.table.io().exists(new org.apache.hadoop.fs.Path(t.bucketDir(t.partition(0)), alone.fileName)));
  }

  @Test
  void aFileWithDeletesIsRewrittenWhenDeletesAreDropped() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of());
    DataFileMeta withDelete = t.write(0, 0, t.records(0, 1, "1+10", "2-"));
    DataFileMeta clean = t.write(0, 0, t.records(0, 10, "5+50", "6+60"));
    CompactResult r = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(5, true,
        List.of(withDelete, clean));
    Set<String> after = r.after().stream().map(f -> f.fileName).collect(Collectors.toSet());
    assertFalse(after.contains(withDelete.fileName), "rewritten, not upgraded");
    assertTrue(after.contains(clean.fileName), "no deletes: upgraded");
    assertEquals(List.of("1+I10"), onDisk(t, r.newFiles()));
    // A file whose delete count is unknown (older writers) is rewritten too.
    DataFileMeta unknown = new DataFileMeta(clean.fileName, clean.fileSize, clean.rowCount, clean.minKey, clean.maxKey,
        clean.keyStats, clean.valueStats, clean.minSequenceNumber, clean.maxSequenceNumber, clean.schemaId, 0,
        List.of(), clean.creationTimeMillis, null, null, 0, null, null);
    CompactResult r2 = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(5, true,
        List.of(unknown));
    assertNotEquals(clean.fileName, r2.after().get(0).fileName);
    // Keeping deletes, the same file is just moved up.
    CompactResult r3 = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(3, false,
        List.of(withDelete));
    assertEquals(withDelete.fileName, r3.after().get(0).fileName);
    assertEquals(3, r3.after().get(0).level);
  }

  @Test
  void outputRollsAtTheTargetFileSizeIntoOneSortedRun() throws IOException {
    KvTestTable t = new KvTestTable(tmp, false, Map.of("target-file-size", "1 b"));
    DataFileMeta a = t.write(0, 0, t.records(0, 1, "1+10", "3+30", "5+50", "7+70"));
    DataFileMeta b = t.write(0, 0, t.records(0, 10, "2+20", "3+31", "6+60"));
    CompactResult r = new CompactRewriter(t.table, t.bucketDir(t.partition(0)), t.source).rewrite(2, false,
        List.of(a, b));
    assertEquals(6, r.after().size(), "one record per file at a 1-byte target");
    assertOneSortedRun(r.after(), 2);
    List<DataFileMeta> ordered = new ArrayList<>(r.after());
    ordered.sort(Metas.KEYS::compareRange);
    assertEquals(List.of("1+I10", "2+I20", "3+I31", "5+I50", "6+I60", "7+I70"), onDisk(t, ordered));
  }

  @Test
  void levelZeroIsNeverAnOutput() {
    KvTestTable[] t = new KvTestTable[1];
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> {
      t[0] = new KvTestTable(tmp, false, Map.of());
      new CompactRewriter(t[0].table, t[0].bucketDir(t[0].partition(0)), t[0].source).rewrite(0, false, List.of());
    });
  }
}
