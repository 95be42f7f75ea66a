package io.lagoon.spark.extensions;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.LagoonTable;
import io.lagoon.spark.write.CopyOnWriteOperation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.plans.FullOuter$;
import org.apache.spark.sql.catalyst.plans.LeftAnti$;
import org.apache.spark.sql.catalyst.plans.LeftOuter$;
import org.apache.spark.sql.catalyst.plans.LeftSemi$;
import org.apache.spark.sql.catalyst.plans.logical.BROADCAST$;
import org.apache.spark.sql.catalyst.plans.logical.HintInfo;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.JoinHint;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeRows;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceData;
import org.apache.spark.sql.catalyst.plans.logical.Union;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.RowLevelOperationTable;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation$;
import scala.collection.JavaConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * A copy-on-write MERGE with a small source joins without moving the target: Spark plans the
 * rewrite as {@code target FULL OUTER JOIN source}, a sort-merge join that shuffles every row of
 * every file it rewrites. With a source Spark estimates at most {@link MergeTargetPruning#MAX_SOURCE_BYTES},
 * this rule plans instead
 * <pre>
 *   target LEFT OUTER JOIN broadcast(source)                       -- each file's rows where they are read
 *   UNION ALL
 *   source LEFT ANTI JOIN broadcast(target' LEFT SEMI JOIN broadcast(source))   -- NOT MATCHED rows
 * </pre>
 * where {@code target'} reads only the condition's columns of the same snapshot the rewrite reads
 * (both are pinned to it here, so an insert decision never sees other files than the update
 * decision did). A MERGE without NOT MATCHED clauses is a left outer join already and only gets the
 * broadcast. The rows are those of the full outer join, so Spark's MERGE logic (clauses, the
 * cardinality check, which sees every match of a target row in the task that read it) is unchanged.
 * Only conditions with an equality between a target column and a source expression are taken
 * (hash joins); others keep Spark's plan.
 */
public final class CopyOnWriteMergeJoin extends Rule<LogicalPlan> {
  private static final HintInfo BROADCAST = HintInfo.apply(scala.Option.apply(BROADCAST$.MODULE$));

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof ReplaceData)) return plan;
    ReplaceData replace = (ReplaceData) plan;
    CopyOnWriteOperation operation = mergeOperation(replace);
    if (operation == null || !(replace.originalTable() instanceof DataSourceV2Relation)) return plan;
    DataSourceV2Relation original = (DataSourceV2Relation) replace.originalTable();
    // Spark sets a group filter when every matching target row is in a file the source matches
    // (no NOT MATCHED BY SOURCE clause); the tasks can then find those files themselves.
    boolean filesWithMatches = replace.groupFilterCondition().isDefined();
    boolean[] inTasks = {false};
    LogicalPlan query = replace.query().transformUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan p) {
        return p instanceof MergeRows && ((MergeRows) p).child() instanceof Join;
      }

      @Override
      public LogicalPlan apply(LogicalPlan p) {
        if (!isDefinedAt(p)) return p;
        MergeRows merge = (MergeRows) p;
        int filePath = MergeWithoutFilePaths.droppable(merge);
        boolean[] dropped = {false};
        LogicalPlan joined = rewrite((Join) merge.child(), operation, original, filesWithMatches, inTasks,
            filePath >= 0, dropped);
        if (joined == null) return p;
        return dropped[0] ? MergeWithoutFilePaths.without(merge, filePath, joined)
            : merge.withNewChildren(seq(List.of(joined)));
      }
    });
    if (query == replace.query()) return plan;
    return new ReplaceData(replace.table(), replace.condition(), query, replace.originalTable(),
        inTasks[0] ? scala.Option.empty() : replace.groupFilterCondition(), replace.write());
  }

  /** The copy-on-write MERGE operation the plan writes, or null. */
  private static CopyOnWriteOperation mergeOperation(ReplaceData replace) {
    if (!(replace.table() instanceof DataSourceV2Relation)) return null;
    Object table = ((DataSourceV2Relation) replace.table()).table();
    if (!(table instanceof RowLevelOperationTable)) return null;
    RowLevelOperation op = ((RowLevelOperationTable) table).operation();
    return op instanceof CopyOnWriteOperation && op.command() == RowLevelOperation.Command.MERGE
        ? (CopyOnWriteOperation) op : null;
  }

  /**
   * The join's replacement, or null to keep it.
   *
   * @param filesWithMatches whether only files with matches need rewriting, which the rewrite
   *     then finds in its tasks where it can ({@link MergeFilesInTasks}), setting {@code inTasks[0]}
   * @param filePathDroppable whether the merge can do without {@code _file}; when the tasks find the
   *     files, nothing else needs it, and the joined rows leave it out, setting {@code dropped[0]}
   */
  private static LogicalPlan rewrite(Join join, CopyOnWriteOperation operation, DataSourceV2Relation original,
                                     boolean filesWithMatches, boolean[] inTasks, boolean filePathDroppable,
                                     boolean[] dropped) {
    boolean full = join.joinType() == FullOuter$.MODULE$;
    if (!full && join.joinType() != LeftOuter$.MODULE$) return null;
    if (join.condition().isEmpty() || join.hint().rightHint().isDefined()) return null;
    LogicalPlan target = join.left();
    LogicalPlan source = PinnedSource.of(join.right());
    if (!readsTarget(target)) return null;
    if (source.stats().sizeInBytes().compare(scala.math.BigInt.apply(MergeTargetPruning.MAX_SOURCE_BYTES)) > 0) {
      return null;
    }
    Expression cond = join.condition().get();
    if (!hasEquiKey(cond, target, source)) return null;
    JoinHint broadcastSource = new JoinHint(join.hint().leftHint(), scala.Option.apply(BROADCAST));
    MergeFilesInTasks.KeyEquality eq = MergeFilesInTasks.find(cond, target, source, operation);
    if (!full) {
      LogicalPlan read = targetRead(eq, target, source, cond, operation, filesWithMatches, inTasks, filePathDroppable,
          dropped);
      return new Join(read, source, LeftOuter$.MODULE$, join.condition(), broadcastSource);
    }

    FileStoreTable table = operation.table();
    Optional<Snapshot> snapshot;
    try {
      snapshot = table.snapshots().latest();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (snapshot.isEmpty()) return null; // an empty table: nothing to join
    DataSourceV2Relation keys;
    try {
      // With a key equality the read returns only rows holding one of the source's key values.
      LagoonTable view = eq == null ? LagoonTable.asOf(table, snapshot.get())
          : LagoonTable.mergeKeysAsOf(table, snapshot.get(), eq.key().name());
      keys = DataSourceV2Relation$.MODULE$.create(view, original.catalog(), original.identifier(), original.options());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The condition on target' instead of the target: its columns by name.
    Map<ExprId, Attribute> byTarget = new HashMap<>();
    scala.collection.Iterator<Attribute> refs = cond.references().iterator();
    while (refs.hasNext()) {
      Attribute a = refs.next();
      if (!target.outputSet().contains(a)) continue;
      Attribute k = column(keys, a.name());
      if (k == null) return null; // a metadata or computed column: keep Spark's plan
      byTarget.put(a.exprId(), k);
    }
    Expression keysCond = cond.transform(new AbstractPartialFunction<Expression, Expression>() {
      @Override
      public boolean isDefinedAt(Expression e) {
        return e instanceof Attribute && byTarget.containsKey(((Attribute) e).exprId());
      }

      @Override
      public Expression apply(Expression e) {
        return isDefinedAt(e) ? byTarget.get(((Attribute) e).exprId()) : e;
      }
    });
    operation.readAt(snapshot.get());
    // The rule runs after Spark's column pruning: each new read names the columns it needs.
    List<NamedExpression> keyColumns = new ArrayList<>(byTarget.values());
    List<NamedExpression> sourceColumns = new ArrayList<>();
    scala.collection.Iterator<Attribute> sc = source.output().iterator();
    while (sc.hasNext()) {
      Attribute a = sc.next();
      if (cond.references().contains(a)) sourceColumns.add(a);
    }
    JoinHint broadcastRight = new JoinHint(scala.Option.empty(), scala.Option.apply(BROADCAST));
    LogicalPlan matchable;
    if (eq != null) {
      // The target rows whose key is a source value: the anti join against them needs no semi join first.
      LogicalPlan given = SourceValuesFilter.over(keys, keys, byTarget.get(eq.key().exprId()), eq.value(), source);
      matchable = new Project(seq(dedup(keyColumns)), given);
    } else {
      matchable = new Join(new Project(seq(dedup(keyColumns)), keys), new Project(seq(sourceColumns), source),
          LeftSemi$.MODULE$, scala.Option.apply(keysCond), broadcastRight);
    }
    Join unmatched = new Join(source, matchable, LeftAnti$.MODULE$, scala.Option.apply(keysCond), broadcastRight);
    LogicalPlan read = targetRead(eq, target, source, cond, operation, filesWithMatches, inTasks, filePathDroppable,
        dropped);
    List<NamedExpression> columns = new ArrayList<>();
    scala.collection.Iterator<Attribute> t = target.output().iterator();
    while (t.hasNext()) {
      Attribute a = t.next();
      if (dropped[0] && MergeWithoutFilePaths.isFilePath(a)) continue;
      columns.add(new Alias(Literal$.MODULE$.create(null, a.dataType()), a.name(), NamedExpression$.MODULE$.newExprId(),
          emptySeq(), scala.Option.empty(), emptySeq()));
    }
    scala.collection.Iterator<Attribute> s = source.output().iterator();
    while (s.hasNext()) columns.add(s.next());
    Project inserts = new Project(seq(columns), unmatched);
    Join outer = new Join(read, source, LeftOuter$.MODULE$, join.condition(), broadcastSource);
    return new Union(seq(List.of(outer, inserts)), false, false);
  }

  /**
   * The target side: pruned to the files with matches in the tasks where it can be, and then
   * without {@code _file} when the merge can do without it (nothing else needs it).
   */
  private static LogicalPlan targetRead(MergeFilesInTasks.KeyEquality eq, LogicalPlan target, LogicalPlan source,
                                        Expression cond, CopyOnWriteOperation operation, boolean filesWithMatches,
                                        boolean[] inTasks, boolean filePathDroppable, boolean[] dropped) {
    if (!filesWithMatches || eq == null) return target;
    LogicalPlan pruned = MergeFilesInTasks.target(eq, cond, target, source, operation);
    if (pruned == null) return target;
    inTasks[0] = true;
    if (!filePathDroppable) return pruned;
    dropped[0] = true;
    return MergeWithoutFilePaths.withoutFilePath(pruned);
  }

  /** Whether this side reads the row-level operation's table (the target of the rewrite). */
  private static boolean readsTarget(LogicalPlan side) {
    return side.find(n -> n instanceof DataSourceV2Relation
        && ((DataSourceV2Relation) n).table() instanceof RowLevelOperationTable).isDefined();
  }

  /** Whether some conjunct equates a target column with an expression of the source alone. */
  private static boolean hasEquiKey(Expression cond, LogicalPlan target, LogicalPlan source) {
    List<Expression> conjuncts = new ArrayList<>();
    Conjuncts.split(cond, conjuncts);
    for (Expression c : conjuncts) {
      if (!(c instanceof EqualTo)) continue;
      Expression l = ((EqualTo) c).left();
      Expression r = ((EqualTo) c).right();
      if (sideOf(l, target) && sideOf(r, source) || sideOf(l, source) && sideOf(r, target)) return true;
    }
    return false;
  }

  private static boolean sideOf(Expression e, LogicalPlan side) {
    return !e.references().isEmpty() && e.references().subsetOf(side.outputSet());
  }

  private static List<NamedExpression> dedup(List<NamedExpression> columns) {
    List<NamedExpression> out = new ArrayList<>();
    for (NamedExpression c : columns) {
      if (out.stream().noneMatch(o -> o.exprId().equals(c.exprId()))) out.add(c);
    }
    return out;
  }

  private static Attribute column(DataSourceV2Relation relation, String name) {
    scala.collection.Iterator<? extends Attribute> it = relation.output().iterator();
    while (it.hasNext()) {
      Attribute a = it.next();
      if (a.name().equals(name)) return a;
    }
    return null;
  }

  private static <T> scala.collection.Seq<T> seq(List<T> list) {
    return JavaConverters.asScalaBuffer(new ArrayList<>(list)).toSeq();
  }

  private static <T> scala.collection.Seq<T> emptySeq() {
    return JavaConverters.asScalaBuffer(new ArrayList<T>()).toSeq();
  }
}
