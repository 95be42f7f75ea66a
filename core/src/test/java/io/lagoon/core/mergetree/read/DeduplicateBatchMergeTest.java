package io.lagoon.core.mergetree.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueBatchSource;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.engine.KeyValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;

/**
 * The columnar deduplicate merge against a model (per key, the record with the highest sequence
 * number, kept when it adds a row) on random runs held in memory, read in small batches that the
 * source reuses, so batch boundaries, stretches held by one run and ties across runs all occur.
 */
class DeduplicateBatchMergeTest {
  /** One record of a file: key, sequence number, row kind, a long value and a nullable string. */
  private static final class Rec {
    final long key;
    final long sequence;
    final byte kind;
    final long value;
    final String text;

    Rec(long key, long sequence, byte kind, long value, String text) {
      this.key = key;
      this.sequence = sequence;
      this.kind = kind;
      this.value = value;
      this.text = text;
    }
  }

  /** Files by name, read in batches of {@code batchRows} into vectors reused for every batch of a file. */
  private static final class MemoryBatches implements KeyValueBatchSource {
    final Map<String, List<Rec>> files = new HashMap<>();
    final DataType keyType;
    final int batchRows;
    int opened;
    int closed;

    MemoryBatches(DataType keyType, int batchRows) {
      this.keyType = keyType;
      this.batchRows = batchRows;
    }

    @Override
    public Iterator<ColumnarBatch> openBatches(Path bucketDir, DataFileMeta file) {
      List<Rec> recs = files.get(file.fileName);
      opened++;
      OnHeapColumnVector[] v = {new OnHeapColumnVector(batchRows, keyType),
          new OnHeapColumnVector(batchRows, DataTypes.LongType), new OnHeapColumnVector(batchRows, DataTypes.ByteType),
          new OnHeapColumnVector(batchRows, DataTypes.LongType), new OnHeapColumnVector(batchRows, DataTypes.StringType)};
      ColumnarBatch batch = new ColumnarBatch(v);
      class Batches implements Iterator<ColumnarBatch>, java.io.Closeable {
        int at;

        @Override public boolean hasNext() { return at < recs.size(); }

        @Override
        public ColumnarBatch next() {
          for (OnHeapColumnVector c : v) c.reset();
          int n = Math.min(batchRows, recs.size() - at);
          for (int i = 0; i < n; i++) {
            Rec r = recs.get(at + i);
            if (keyType == DataTypes.IntegerType) v[0].putInt(i, (int) r.key);
            else v[0].putLong(i, r.key);
            v[1].putLong(i, r.sequence);
            v[2].putByte(i, r.kind);
            v[3].putLong(i, r.value);
            if (r.text == null) v[4].putNull(i);
            else v[4].putByteArray(i, r.text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
          }
          at += n;
          batch.setNumRows(n);
          return batch;
        }

        @Override public void close() { closed++; }
      }
      return new Batches();
    }

    @Override public int keyArity() { return 1; }

    @Override
    public RuntimeException readFailure(Path file, RuntimeException cause) {
      return new IllegalStateException("Cannot read " + file, cause);
    }
  }

  @Test
  void randomRunsMergeAsTheModelDoes() {
    Random random = new Random(20261203L);
    for (int round = 0; round < 400; round++) {
      boolean intKeys = round % 2 == 0;
      MemoryBatches source = new MemoryBatches(intKeys ? DataTypes.IntegerType : DataTypes.LongType,
          1 + random.nextInt(round % 3 == 0 ? 3 : 40));
      List<Section> sections = new ArrayList<>();
      TreeMap<Long, Rec> expected = new TreeMap<>();
      long sequence = 0;
      int sectionCount = 1 + random.nextInt(3);
      long keyBase = intKeys ? -500 : Long.MIN_VALUE / 2;
      for (int s = 0; s < sectionCount; s++) {
        List<List<DataFileMeta>> runs = new ArrayList<>();
        Map<Long, Rec> winners = new HashMap<>();
        int runCount = 1 + random.nextInt(5);
        for (int r = 0; r < runCount; r++) {
          // A run: ascending unique keys from the section's range, cut into files.
          List<Rec> recs = new ArrayList<>();
          int density = 1 + random.nextInt(10);
          for (long k = keyBase; k < keyBase + 300; k++) {
            if (random.nextInt(density) != 0) continue;
            byte kind = random.nextInt(5) == 0 ? KeyValue.DELETE : random.nextInt(8) == 0 ? KeyValue.UPDATE_AFTER
                : KeyValue.INSERT;
            Rec rec = new Rec(k, sequence++ * 7 % 1009 + 1009L * round, kind, random.nextLong(),
                random.nextInt(6) == 0 ? null : "v" + random.nextInt(1000));
            recs.add(rec);
            Rec w = winners.get(k);
            if (w == null || rec.sequence > w.sequence) winners.put(k, rec);
          }
          List<DataFileMeta> files = new ArrayList<>();
          int at = 0;
          while (at < recs.size()) {
            int n = Math.min(recs.size() - at, 1 + random.nextInt(60));
            String name = "f-" + s + "-" + r + "-" + files.size();
            source.files.put(name, new ArrayList<>(recs.subList(at, at + n)));
            files.add(SectionTestFiles.file(name, 0, n - 1));
            at += n;
          }
          if (!files.isEmpty()) runs.add(files);
        }
        for (Rec w : winners.values()) if (KeyValue.isAdd(w.kind)) expected.put(w.key, w);
        if (!runs.isEmpty()) sections.add(new Section(runs));
        keyBase += 300;
      }

      // Output columns: the key, the string, the long value (columns 0, 4, 3 of a read batch).
      DeduplicateBatchMerge merge = new DeduplicateBatchMerge(source, new Path("/bucket-0"), sections,
          intKeys ? 4 : 8, new int[] {0, 4, 3});
      TreeMap<Long, String> actual = new TreeMap<>();
      ColumnarBatch b;
      while ((b = merge.next()) != null) {
        assertTrue(b.numRows() > 0, "an empty batch");
        for (int i = 0; i < b.numRows(); i++) {
          ColumnVector k = b.column(0);
          long key = intKeys ? k.getInt(i) : k.getLong(i);
          String row = (b.column(1).isNullAt(i) ? "null" : b.column(1).getUTF8String(i).toString()) + "/"
              + b.column(2).getLong(i);
          String before = actual.put(key, row);
          assertEquals(null, before, "key " + key + " came out twice in round " + round);
        }
      }
      merge.close();
      TreeMap<Long, String> want = new TreeMap<>();
      for (Rec w : expected.values()) want.put(w.key, (w.text == null ? "null" : w.text) + "/" + w.value);
      assertEquals(want, actual, "round " + round);
      assertEquals(source.opened, source.closed, "every file opened is closed (round " + round + ")");
    }
  }

  @Test
  void aBatchThatOneRunHoldsWhollyComesOutAsItsOwnVectors() {
    MemoryBatches source = new MemoryBatches(DataTypes.LongType, 100);
    List<Rec> recs = new ArrayList<>();
    for (long k = 0; k < 50; k++) recs.add(new Rec(k, k, KeyValue.INSERT, k * 10, "x" + k));
    source.files.put("only", recs);
    DeduplicateBatchMerge merge = new DeduplicateBatchMerge(source, new Path("/bucket-0"),
        List.of(new Section(List.of(List.of(SectionTestFiles.file("only", 0, 49))))), 8, new int[] {3});
    ColumnarBatch b = merge.next();
    assertEquals(50, b.numRows());
    assertTrue(b.column(0) instanceof OnHeapColumnVector, "no view over a wholly selected batch");
    assertEquals(70L, b.column(0).getLong(7));
    assertEquals(null, merge.next());
  }
}
