package io.lagoon.core.mergetree;

import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.TableOptions;

/**
 * Whether readers of a primary-key table skip level-0 files, as Paimon's do for first-row tables
 * and in deletion-vector mode: rows become visible once compaction moves them up. Writers of such
 * tables therefore push their level-0 files up after every write.
 */
public final class LevelZeroVisibility {
  private LevelZeroVisibility() {}

  public static boolean hidden(TableSchema schema) {
    MergeOptions o = new MergeOptions(schema.options());
    return o.engine() == MergeEngine.FIRST_ROW || o.bool(TableOptions.DELETION_VECTORS_ENABLED, false);
  }
}
