package io.lagoon.core.mergetree.read;

import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.KeySections;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.types.PaimonType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * How one section of a bucket is read: raw (the file's rows are the table's rows, so it can be
 * read columnar with no merge) or merged row by row.
 */
public final class SectionRead implements Serializable {
  public final Section section;
  public final boolean raw;

  public SectionRead(Section section, boolean raw) {
    this.section = section;
    this.raw = raw;
  }

  /** Plans the files of one bucket: sections in key order, each raw or merged. */
  public static List<SectionRead> plan(List<DataFileMeta> files, List<PaimonType> keyTypes, MergeEngine engine) {
    List<SectionRead> out = new ArrayList<>();
    for (Section s : KeySections.split(files, keyTypes)) out.add(new SectionRead(s, canReadRaw(s, engine)));
    return out;
  }

  /**
   * A lone file needs no merge when it holds no retract records (they must be dropped; an unknown
   * count might hide some) and its records already are merge results: any level above 0 is
   * compaction output, and for deduplicate and first-row a level-0 file's records (unique keys,
   * one per key) are the result too. Other engines may transform even a single record.
   */
  public static boolean canReadRaw(Section s, MergeEngine engine) {
    if (!s.isSingleFile()) return false;
    DataFileMeta f = s.runs().get(0).get(0);
    if (f.deleteRowCount == null || f.deleteRowCount != 0) return false;
    return f.level > 0 || engine == MergeEngine.DEDUPLICATE || engine == MergeEngine.FIRST_ROW;
  }
}
