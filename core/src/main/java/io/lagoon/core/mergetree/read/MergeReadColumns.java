package io.lagoon.core.mergetree.read;

import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.engine.RecordOrder;
import io.lagoon.core.schema.TableSchema;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The value columns a merge must read. Deduplicate and first-row keep one whole record per key,
 * so the projected columns suffice, plus the {@code sequence.field} columns that pick the record.
 * Partial-update and aggregation combine records column by column under options that may tie
 * columns together (sequence groups), so they read every column.
 */
public final class MergeReadColumns {
  private MergeReadColumns() {}

  /** The columns to read, or null for all of them. */
  public static Set<String> valueColumns(TableSchema schema, Set<String> projected) {
    MergeEngine engine = new MergeOptions(schema.options()).engine();
    if (engine != MergeEngine.DEDUPLICATE && engine != MergeEngine.FIRST_ROW) return null;
    Set<String> out = new LinkedHashSet<>(projected);
    out.addAll(RecordOrder.create(schema.options(), schema.fields()).sequenceFields());
    return out;
  }
}
