package io.lagoon.core.mergetree.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.LevelZeroVisibility;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a reader of one primary-key bucket reads, by Paimon's rules: files whose rows are the
 * table's rows, read as they are (with their deletion vector), key sections merged row by row (in
 * key order), and level-0 files hidden where readers skip them (deletion vectors, first-row).
 * There nothing is merged: above level 0 a key lives in one file, its older copies marked in
 * vectors; a file there holding retract records cannot be read that way and is refused.
 */
public final class BucketReadPlan {
  public final List<DataFileMeta> raw;
  public final List<Section> merged;
  /** Level-0 files not visible yet (deletion vectors, first-row). */
  public final long hiddenLevel0;
  /**
   * Every section, raw ones as single-file sections, in key order: what one reader that merges
   * the whole bucket reads. Empty where level 0 is hidden (nothing is merged there).
   */
  public final List<Section> inKeyOrder;

  private BucketReadPlan(List<DataFileMeta> raw, List<Section> merged, long hiddenLevel0, List<Section> inKeyOrder) {
    this.raw = raw;
    this.merged = merged;
    this.hiddenLevel0 = hiddenLevel0;
    this.inKeyOrder = inKeyOrder;
  }

  public static BucketReadPlan of(FileStoreTable table, List<DataFileMeta> bucketFiles) {
    // Where level 0 is hidden (deletion vectors, first-row) a key lives in one file above it.
    boolean hideLevel0 = LevelZeroVisibility.hidden(table.schema());
    List<DataFileMeta> files = new ArrayList<>();
    long hidden = 0;
    for (DataFileMeta f : bucketFiles) {
      if (hideLevel0 && f.level == 0) hidden++;
      else files.add(f);
    }
    List<DataFileMeta> raw = new ArrayList<>();
    List<Section> merged = new ArrayList<>();
    if (hideLevel0) {
      for (DataFileMeta f : files) {
        if (f.deleteRowCount == null || f.deleteRowCount != 0) {
          throw new UnsupportedOperationException("Data file " + f.fileName + " of " + table.fullName()
              + " (level " + f.level + ") holds retract records in deletion-vector mode, which this Lagoon "
              + "version cannot read without merging");
        }
        raw.add(f);
      }
      return new BucketReadPlan(raw, merged, hidden, List.of());
    }
    MergeEngine engine = new MergeOptions(table.schema().options()).engine();
    List<Section> all = new ArrayList<>();
    for (SectionRead s : SectionRead.plan(files, new KeyValueLayout(table.schema()).keyTypes(), engine)) {
      if (s.raw) raw.add(s.section.files().get(0));
      else merged.add(s.section);
      all.add(s.section);
    }
    return new BucketReadPlan(raw, merged, hidden, all);
  }
}
