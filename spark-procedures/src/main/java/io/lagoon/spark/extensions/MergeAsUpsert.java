package io.lagoon.spark.extensions;

import io.lagoon.core.catalog.PrimaryKeyTableRules;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.spark.LagoonTable;
import io.lagoon.spark.write.UpsertWrites;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases$;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.plans.logical.AppendData$;
import org.apache.spark.sql.catalyst.plans.logical.Assignment;
import org.apache.spark.sql.catalyst.plans.logical.InsertAction;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeAction;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.UpdateAction;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * Runs {@code MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED
 * THEN INSERT *} on a deduplicate primary-key table as what it means there: an upsert of the
 * source, written like an INSERT, with no join and no read of the target. It applies only when the
 * ON condition is exactly the primary key, both clauses are unconditional and set every column
 * to the same source values; anything else takes Spark's general MERGE. Like the general path it
 * refuses a source with two rows for one key (checked as the write sees the rows, sorted by key).
 */
public final class MergeAsUpsert extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof MergeIntoTable)) return plan;
    MergeIntoTable m = (MergeIntoTable) plan;
    if (!m.resolved() || !m.aligned()) return plan;
    LogicalPlan target = EliminateSubqueryAliases$.MODULE$.apply(m.targetTable());
    if (!(target instanceof DataSourceV2Relation)) return plan;
    DataSourceV2Relation relation = (DataSourceV2Relation) target;
    if (!(relation.table() instanceof LagoonTable)) return plan;
    FileStoreTable table = ((LagoonTable) relation.table()).core();
    if (!isUpsertTable(table)) return plan;
    if (m.notMatchedBySourceActions().nonEmpty() || m.matchedActions().size() != 1 || m.notMatchedActions().size() != 1) {
      return plan;
    }
    MergeAction matched = m.matchedActions().head();
    MergeAction notMatched = m.notMatchedActions().head();
    if (!(matched instanceof UpdateAction) || !(notMatched instanceof InsertAction)) return plan;
    if (matched.condition().isDefined() || notMatched.condition().isDefined()) return plan;
    List<Assignment> updates = JavaConverters.seqAsJavaList(((UpdateAction) matched).assignments());
    List<Assignment> inserts = JavaConverters.seqAsJavaList(((InsertAction) notMatched).assignments());
    List<AttributeReference> columns = JavaConverters.seqAsJavaList(relation.output());
    if (updates.size() != columns.size() || inserts.size() != columns.size()) return plan;
    AttributeSet source = m.sourceTable().outputSet();
    List<Expression> values = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Expression value = inserts.get(i).value();
      if (!isColumn(updates.get(i).key(), columns.get(i)) || !isColumn(inserts.get(i).key(), columns.get(i))
          || !updates.get(i).value().semanticEquals(value) || !value.references().subsetOf(source)) {
        return plan;
      }
      values.add(value);
    }
    if (!conditionIsTheKey(m.mergeCondition(), table, columns, values)) return plan;
    List<NamedExpression> projection = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Expression v = values.get(i);
      String name = columns.get(i).name();
      projection.add(new Alias(v, name, NamedExpression$.MODULE$.newExprId(), emptySeq(), scala.Option.empty(),
          emptySeq()));
    }
    Project query = new Project(JavaConverters.asScalaBuffer(projection).toSeq(), m.sourceTable());
    scala.collection.immutable.Map<String, String> options = new scala.collection.immutable.Map.Map1<>(
        UpsertWrites.MERGE_OPTION, "true");
    return AppendData$.MODULE$.byPosition(relation, query, options);
  }

  /** Deduplicate, writable, no {@code rowkind.field} (a MERGE's rows are not change records). */
  private static boolean isUpsertTable(FileStoreTable table) {
    if (!table.hasPrimaryKey()) return false;
    MergeOptions o = new MergeOptions(table.schema().options());
    if (o.engine() != MergeEngine.DEDUPLICATE || o.ignoreDelete()) return false;
    if (table.options().rowKindField() != null) return false;
    try {
      PrimaryKeyTableRules.requireWritable(table.fullName(), table.schema());
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean isColumn(Expression key, AttributeReference column) {
    return key instanceof Attribute && ((Attribute) key).exprId().equals(column.exprId());
  }

  /** Whether the ON condition is {@code t.k = <the value inserted for k>} for every key column, and nothing else. */
  private static boolean conditionIsTheKey(Expression condition, FileStoreTable table, List<AttributeReference> columns,
                                           List<Expression> values) {
    Set<String> keys = new HashSet<>(table.schema().primaryKeys());
    Set<String> covered = new HashSet<>();
    List<Expression> conjuncts = new ArrayList<>();
    Conjuncts.split(condition, conjuncts);
    for (Expression c : conjuncts) {
      if (!(c instanceof EqualTo)) return false;
      EqualTo eq = (EqualTo) c;
      String key = keyEquality(eq.left(), eq.right(), keys, columns, values);
      if (key == null) key = keyEquality(eq.right(), eq.left(), keys, columns, values);
      if (key == null || !covered.add(key)) return false;
    }
    return covered.equals(keys);
  }

  private static String keyEquality(Expression targetSide, Expression sourceSide, Set<String> keys,
                                    List<AttributeReference> columns, List<Expression> values) {
    for (int i = 0; i < columns.size(); i++) {
      AttributeReference col = columns.get(i);
      if (keys.contains(col.name()) && isColumn(targetSide, col) && values.get(i).semanticEquals(sourceSide)) {
        return col.name();
      }
    }
    return null;
  }


  private static <T> Seq<T> emptySeq() {
    return JavaConverters.asScalaBuffer(new ArrayList<T>()).toSeq();
  }
}
