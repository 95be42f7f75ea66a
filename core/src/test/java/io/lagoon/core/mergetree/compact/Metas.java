package io.lagoon.core.mergetree.compact;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/** Made-up file metadata with INT keys, for tests that never touch a file. */
final class Metas {
  static final List<PaimonType> INT_KEY = List.of(PaimonType.of(TypeRoot.INT));
  static final FileKeys KEYS = new FileKeys(INT_KEY);

  private Metas() {}

  static DataFileMeta file(String name, int level, long size, int minKey, int maxKey, long minSeq, long maxSeq) {
    return new DataFileMeta(name, size, 1, key(minKey), key(maxKey), null, null, minSeq, maxSeq, 0, level,
        List.of(), 0L, 0L, null, level == 0 ? 0 : 1, null, null);
  }

  /** A file whose only interesting property is its size (and level). */
  static DataFileMeta sized(String name, int level, long size) {
    return file(name, level, size, 0, 100, 0, 0);
  }

  static byte[] key(int k) {
    return BinaryRows.serialize(new GenericInternalRow(new Object[] {k}), INT_KEY);
  }

  /** Runs as the picker sees them: one single-file run per (level, size) pair, in the given order. */
  static List<LevelSortedRun> runs(long... levelSizePairs) {
    List<LevelSortedRun> out = new ArrayList<>();
    for (int i = 0; i < levelSizePairs.length; i += 2) {
      int level = (int) levelSizePairs[i];
      out.add(new LevelSortedRun(level, SortedRun.ofSingle(sized("f" + i / 2, level, levelSizePairs[i + 1]))));
    }
    return out;
  }
}
