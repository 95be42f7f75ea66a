package io.lagoon.core.mergetree.read;

import io.lagoon.core.mergetree.Section;
import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/** Data-file metadata with INT key ranges, for section tests. */
public final class SectionTestFiles {
  public static final List<PaimonType> KEY_TYPES = List.of(PaimonType.of(TypeRoot.INT));

  private SectionTestFiles() {}

  public static DataFileMeta file(String name, int minKey, int maxKey, int level, Long deletes) {
    return new DataFileMeta(name, 100, maxKey - minKey + 1, key(minKey), key(maxKey), SimpleStats.EMPTY,
        SimpleStats.EMPTY, 0, 0, 0, level, List.of(), 0L, deletes, null, 0, null, null);
  }

  public static DataFileMeta file(String name, int minKey, int maxKey) {
    return file(name, minKey, maxKey, 0, 0L);
  }

  public static byte[] key(int k) {
    return BinaryRows.serialize(new GenericInternalRow(new Object[] {k}), KEY_TYPES);
  }

  /** Sections as nested file-name lists: section, run, file. */
  public static List<List<List<String>>> names(List<Section> sections) {
    List<List<List<String>>> out = new ArrayList<>();
    for (Section s : sections) {
      List<List<String>> runs = new ArrayList<>();
      for (List<DataFileMeta> run : s.runs()) {
        List<String> files = new ArrayList<>();
        for (DataFileMeta f : run) files.add(f.fileName);
        runs.add(files);
      }
      out.add(runs);
    }
    return out;
  }
}
