package io.lagoon.core.mergetree.read;

import io.lagoon.core.mergetree.KeySections;
import static io.lagoon.core.mergetree.read.SectionTestFiles.KEY_TYPES;
import static io.lagoon.core.mergetree.read.SectionTestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;

class MergeTreeReaderTest {
  private static final List<DataField> FIELDS = List.of(
      new DataField(0, "id", PaimonType.of(TypeRoot.INT).notNull()),
      new DataField(1, "v", PaimonType.of(TypeRoot.BIGINT)));

  /** Files held in memory; records which files were opened and which are still open. */
  private static final class MemorySource implements KeyValueSource {
    final Map<String, List<KeyValue>> files = new HashMap<>();
    final List<String> opened = new ArrayList<>();
    final Set<String> open = new HashSet<>();
    int maxOpen;
    boolean reuseRows;

    @Override
    public CloseableIterator<KeyValue> open(Path bucketDir, DataFileMeta file) {
      opened.add(file.fileName);
      open.add(file.fileName);
      maxOpen = Math.max(maxOpen, open.size());
      Iterator<KeyValue> it = files.get(file.fileName).iterator();
      GenericInternalRow key = new GenericInternalRow(1);
      GenericInternalRow value = new GenericInternalRow(2);
      return new CloseableIterator<>() {
        @Override public boolean hasNext() { return it.hasNext(); }

        @Override
        public KeyValue next() {
          KeyValue kv = it.next();
          if (!reuseRows) return kv;
          // As file readers do: one key row and one value row, overwritten for every record.
          key.update(0, kv.key().getInt(0));
          value.update(0, kv.value().getInt(0));
          value.update(1, kv.value().isNullAt(1) ? null : kv.value().getLong(1));
          return new KeyValue(key, kv.sequence(), kv.rowKind(), value);
        }
        @Override public void close() { open.remove(file.fileName); }
      };
    }
  }

  private static KeyValue kv(int id, long seq, byte kind, Long v) {
    return new KeyValue(new GenericInternalRow(new Object[] {id}), seq, kind, new GenericInternalRow(new Object[] {id, v}));
  }

  private static List<String> read(MemorySource source, List<DataFileMeta> files, Map<String, String> options) {
    MergeTreeReader reader = new MergeTreeReader(source, new KeyComparator(KEY_TYPES),
        MergeFunctions.recordOrder(options, FIELDS), MergeFunctions.create(options, FIELDS, List.of("id")));
    List<String> out = new ArrayList<>();
    try (CloseableIterator<KeyValue> it = reader.read(new Path("/t/bucket-0"), KeySections.split(files, KEY_TYPES))) {
      while (it.hasNext()) {
        KeyValue r = it.next();
        out.add(r.value().getInt(0) + "=" + (r.value().isNullAt(1) ? "null" : r.value().getLong(1)));
      }
    }
    return out;
  }

  @Test
  void mergesOverlappingFilesAndConcatenatesSectionsInKeyOrder() {
    MemorySource src = new MemorySource();
    src.files.put("old", List.of(kv(1, 1, KeyValue.INSERT, 10L), kv(2, 2, KeyValue.INSERT, 20L),
        kv(3, 3, KeyValue.INSERT, 30L)));
    src.files.put("new", List.of(kv(1, 7, KeyValue.UPDATE_AFTER, 11L), kv(3, 8, KeyValue.DELETE, 30L)));
    src.files.put("far", List.of(kv(50, 4, KeyValue.INSERT, 500L), kv(60, 5, KeyValue.INSERT, 600L)));
    List<DataFileMeta> files = List.of(file("far", 50, 60), file("new", 1, 3), file("old", 1, 3));
    assertEquals(List.of("1=11", "2=20", "50=500", "60=600"), read(src, files, Map.of()));
    // One section at a time: the far file is opened only after the first section's files closed.
    assertEquals("far", src.opened.get(2));
    assertEquals(2, src.maxOpen);
    assertEquals(Set.of(), src.open);
  }

  @Test
  void sourcesThatReuseTheirRowsMergeTheSame() {
    MemorySource src = new MemorySource();
    src.reuseRows = true;
    src.files.put("a", List.of(kv(1, 1, KeyValue.INSERT, 10L), kv(2, 2, KeyValue.INSERT, 20L),
        kv(4, 3, KeyValue.INSERT, 40L)));
    src.files.put("b", List.of(kv(2, 5, KeyValue.INSERT, 21L), kv(3, 6, KeyValue.INSERT, 30L)));
    assertEquals(List.of("1=10", "2=21", "3=30", "4=40"), read(src, List.of(file("a", 1, 4), file("b", 2, 3)), Map.of()));
    assertEquals(List.of("1=10", "2=20", "4=40"), read(src, List.of(file("a", 1, 4)), Map.of()));
  }

  @Test
  void aggregationSumsAcrossFiles() {
    MemorySource src = new MemorySource();
    src.files.put("a", List.of(kv(1, 1, KeyValue.INSERT, 10L), kv(2, 2, KeyValue.INSERT, 1L)));
    src.files.put("b", List.of(kv(1, 3, KeyValue.INSERT, 5L)));
    src.files.put("c", List.of(kv(1, 4, KeyValue.INSERT, 100L), kv(2, 5, KeyValue.INSERT, 2L)));
    Map<String, String> options = Map.of("merge-engine", "aggregation", "fields.v.aggregate-function", "sum");
    assertEquals(List.of("1=115", "2=3"), read(src, List.of(file("a", 1, 2), file("b", 1, 1), file("c", 1, 2)), options));
  }
}
