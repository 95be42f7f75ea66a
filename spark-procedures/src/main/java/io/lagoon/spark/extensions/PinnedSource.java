package io.lagoon.spark.extensions;

import io.lagoon.spark.LagoonTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.runtime.AbstractPartialFunction;

/**
 * A row-level statement's source with each Lagoon table it reads fixed to the table's latest
 * snapshot. The plan rules read the source more than once (the join, the dynamic pruning filters'
 * subqueries, the anti join of NOT MATCHED rows); without this, each read would take the latest
 * snapshot when it is planned, and a commit to the source in between could prune the target by
 * values the join never sees, or the reverse.
 */
public final class PinnedSource {
  private PinnedSource() {
  }

  public static LogicalPlan of(LogicalPlan source) {
    return source.transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan p) {
        // Read options may already choose a snapshot (time travel) or a range: those stay.
        return p instanceof DataSourceV2Relation && ((DataSourceV2Relation) p).table() instanceof LagoonTable
            && ((DataSourceV2Relation) p).options().isEmpty();
      }

      @Override
      public LogicalPlan apply(LogicalPlan p) {
        if (!isDefinedAt(p)) return p;
        DataSourceV2Relation r = (DataSourceV2Relation) p;
        LagoonTable pinned;
        try {
          pinned = ((LagoonTable) r.table()).pinnedToLatest();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        if (pinned == r.table()) return p;
        // The same columns (same attribute ids), so the rest of the plan still refers to them.
        return new DataSourceV2Relation(pinned, r.output(), r.catalog(), r.identifier(), r.options());
      }
    });
  }
}
