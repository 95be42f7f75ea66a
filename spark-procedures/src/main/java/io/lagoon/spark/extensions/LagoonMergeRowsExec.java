package io.lagoon.spark.extensions;

import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.MergeRows;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.internal.SQLConf;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * The MERGE step that turns joined rows into the rows written ({@link MergeRowsIterator}), for
 * MERGEs into Lagoon tables: Spark's own operator with the same fields, planned by
 * {@link PlanMergeRows}.
 */
public final class LagoonMergeRowsExec extends SparkPlan {
  private static final String ROW_ID = "__row_id";

  private final Expression isSourceRowPresent;
  private final Expression isTargetRowPresent;
  private final Seq<MergeRows.Instruction> matchedInstructions;
  private final Seq<MergeRows.Instruction> notMatchedInstructions;
  private final Seq<MergeRows.Instruction> notMatchedBySourceInstructions;
  private final boolean checkCardinality;
  private final Seq<Attribute> output;
  private final SparkPlan child;

  public LagoonMergeRowsExec(Expression isSourceRowPresent, Expression isTargetRowPresent,
                             Seq<MergeRows.Instruction> matchedInstructions,
                             Seq<MergeRows.Instruction> notMatchedInstructions,
                             Seq<MergeRows.Instruction> notMatchedBySourceInstructions, boolean checkCardinality,
                             Seq<Attribute> output, SparkPlan child) {
    this.isSourceRowPresent = isSourceRowPresent;
    this.isTargetRowPresent = isTargetRowPresent;
    this.matchedInstructions = matchedInstructions;
    this.notMatchedInstructions = notMatchedInstructions;
    this.notMatchedBySourceInstructions = notMatchedBySourceInstructions;
    this.checkCardinality = checkCardinality;
    this.output = output;
    this.child = child;
  }

  static LagoonMergeRowsExec of(MergeRows m, SparkPlan child) {
    return new LagoonMergeRowsExec(m.isSourceRowPresent(), m.isTargetRowPresent(), m.matchedInstructions(),
        m.notMatchedInstructions(), m.notMatchedBySourceInstructions(), m.checkCardinality(), m.output(), child);
  }

  @Override
  public RDD<InternalRow> doExecute() {
    MergeRowsIterator.Plan plan = new MergeRowsIterator.Plan(isSourceRowPresent, isTargetRowPresent,
        MergeRowsIterator.list(matchedInstructions), MergeRowsIterator.list(notMatchedInstructions),
        MergeRowsIterator.list(notMatchedBySourceInstructions), checkCardinality ? rowIdOrdinal() : -1,
        child.output());
    return child.execute().toJavaRDD()
        .mapPartitionsWithIndex((partition, rows) -> new MergeRowsIterator(plan, partition, rows), false)
        .rdd();
  }

  /** The synthetic row id Spark's MERGE adds to the target's rows for its cardinality check. */
  private int rowIdOrdinal() {
    boolean caseSensitive = SQLConf.get().caseSensitiveAnalysis();
    java.util.List<Attribute> in = JavaConverters.seqAsJavaList(child.output());
    for (int i = 0; i < in.size(); i++) {
      String name = in.get(i).name();
      if (caseSensitive ? name.equals(ROW_ID) : name.equalsIgnoreCase(ROW_ID)) return i;
    }
    throw new IllegalStateException("MERGE cardinality check without a " + ROW_ID + " column in " + child.output());
  }

  @Override
  public Seq<Attribute> output() {
    return output;
  }

  @Override
  public String simpleString(int maxFields) {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (Attribute a : JavaConverters.seqAsJavaList(output)) names.add(a.toString());
    return "LagoonMergeRowsExec[" + String.join(", ", names) + "]";
  }

  @Override
  public Seq<SparkPlan> children() {
    return JavaConverters.asScalaBuffer(java.util.List.of(child)).toSeq();
  }

  @Override
  public SparkPlan withNewChildrenInternal(scala.collection.IndexedSeq<SparkPlan> children) {
    return new LagoonMergeRowsExec(isSourceRowPresent, isTargetRowPresent, matchedInstructions,
        notMatchedInstructions, notMatchedBySourceInstructions, checkCardinality, output, children.apply(0));
  }

  @Override
  @SuppressWarnings("unchecked")
  public SparkPlan makeCopy(Object[] args) {
    return new LagoonMergeRowsExec((Expression) args[0], (Expression) args[1], (Seq<MergeRows.Instruction>) args[2],
        (Seq<MergeRows.Instruction>) args[3], (Seq<MergeRows.Instruction>) args[4], (Boolean) args[5],
        (Seq<Attribute>) args[6], (SparkPlan) args[7]);
  }

  @Override
  public int productArity() {
    return 8;
  }

  @Override
  public Object productElement(int n) {
    switch (n) {
      case 0: return isSourceRowPresent;
      case 1: return isTargetRowPresent;
      case 2: return matchedInstructions;
      case 3: return notMatchedInstructions;
      case 4: return notMatchedBySourceInstructions;
      case 5: return checkCardinality;
      case 6: return output;
      case 7: return child;
      default: throw new IndexOutOfBoundsException(Integer.toString(n));
    }
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof LagoonMergeRowsExec;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LagoonMergeRowsExec)) return false;
    LagoonMergeRowsExec m = (LagoonMergeRowsExec) o;
    return checkCardinality == m.checkCardinality && isSourceRowPresent.equals(m.isSourceRowPresent)
        && isTargetRowPresent.equals(m.isTargetRowPresent) && matchedInstructions.equals(m.matchedInstructions)
        && notMatchedInstructions.equals(m.notMatchedInstructions)
        && notMatchedBySourceInstructions.equals(m.notMatchedBySourceInstructions) && output.equals(m.output)
        && child.equals(m.child);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(isSourceRowPresent, matchedInstructions, notMatchedInstructions,
        notMatchedBySourceInstructions, output, child);
  }
}
