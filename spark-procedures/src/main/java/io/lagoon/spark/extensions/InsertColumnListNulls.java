package io.lagoon.spark.extensions;

import io.lagoon.spark.LagoonTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases$;
import org.apache.spark.sql.catalyst.analysis.UnresolvedStar;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.collection.JavaConverters;

/**
 * {@code INSERT INTO t (a, b) ...} writes NULL into the columns of {@code t} its column list leaves
 * out, as Spark does for its own tables; Spark 3.5 refuses such an INSERT into a catalog table
 * ("Cannot find data for the output column"), which is what a user meets after
 * {@code ALTER TABLE ADD COLUMN}. The rule appends the missing columns, as typed NULLs, to the
 * query and to the column list before Spark resolves the insert. Only nullable columns are filled:
 * a NOT NULL column left out stays out, and Spark's own error names it.
 */
public final class InsertColumnListNulls extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof InsertIntoStatement)) return plan;
    InsertIntoStatement insert = (InsertIntoStatement) plan;
    if (insert.userSpecifiedCols().isEmpty()) return plan;
    LogicalPlan target = EliminateSubqueryAliases$.MODULE$.apply(insert.table());
    if (!(target instanceof DataSourceV2Relation) || !(((DataSourceV2Relation) target).table() instanceof LagoonTable)) {
      return plan;
    }
    Set<String> given = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    given.addAll(JavaConverters.seqAsJavaList(insert.userSpecifiedCols()));
    given.addAll(JavaConverters.setAsJavaSet(insert.partitionSpec().keySet()));
    List<NamedExpression> nulls = new ArrayList<>();
    List<String> names = new ArrayList<>(JavaConverters.seqAsJavaList(insert.userSpecifiedCols()));
    scala.collection.Iterator<Attribute> columns = target.output().iterator();
    while (columns.hasNext()) {
      Attribute c = columns.next();
      if (given.contains(c.name())) continue;
      if (!c.nullable()) continue; // left out: Spark's error names it
      Expression value = Literal$.MODULE$.create(null, c.dataType());
      nulls.add(new Alias(value, c.name(), NamedExpression$.MODULE$.newExprId(), emptySeq(), scala.Option.empty(),
          emptySeq()));
      names.add(c.name());
    }
    if (nulls.isEmpty()) return plan;
    List<NamedExpression> projection = new ArrayList<>();
    projection.add(new UnresolvedStar(scala.Option.empty()));
    projection.addAll(nulls);
    LogicalPlan query = new Project(seq(projection), insert.query());
    return insert.copy(insert.table(), insert.partitionSpec(), seq(names), query, insert.overwrite(),
        insert.ifPartitionNotExists(), insert.byName());
  }

  private static <T> scala.collection.Seq<T> seq(List<T> list) {
    return JavaConverters.asScalaBuffer(new ArrayList<>(list)).toSeq();
  }

  private static <T> scala.collection.Seq<T> emptySeq() {
    return JavaConverters.asScalaBuffer(new ArrayList<T>()).toSeq();
  }
}
