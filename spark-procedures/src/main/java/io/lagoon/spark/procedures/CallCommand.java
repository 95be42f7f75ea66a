package io.lagoon.spark.procedures;

import io.lagoon.spark.LagoonCatalog;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OneRowRelation;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.execution.command.LeafRunnableCommand;
import scala.collection.JavaConverters;
import scala.collection.Seq;
import scala.collection.immutable.Map;

/**
 * The plan of one {@code CALL}: Spark runs it as a command (eagerly, like other commands). The
 * argument values are Spark expressions, evaluated when the call runs; they must be constants.
 */
@SuppressWarnings("unchecked")
public final class CallCommand extends LogicalPlan implements LeafRunnableCommand {
  private final String catalogName;
  private final Procedure procedure;
  private final List<String> argNames;
  private final List<Expression> argValues;
  private final Seq<Attribute> output;

  /** @param catalogName the catalog written in the call, or null for the session's current one */
  CallCommand(String catalogName, Procedure procedure, List<String> argNames, List<Expression> argValues) {
    this.catalogName = catalogName;
    this.procedure = procedure;
    this.argNames = argNames;
    this.argValues = argValues;
    this.output = (Seq<Attribute>) (Seq<?>) DataTypeUtils.toAttributes(procedure.output());
  }

  @Override
  public Seq<Row> run(SparkSession session) {
    var manager = session.sessionState().catalogManager();
    CatalogPlugin plugin = catalogName == null ? manager.currentCatalog() : manager.catalog(catalogName);
    if (!(plugin instanceof LagoonCatalog)) {
      throw new IllegalArgumentException("CALL " + plugin.name() + ".sys." + procedure.name() + ": catalog '" + plugin.name()
          + "' is not a Lagoon catalog" + (catalogName == null ? " (name one: CALL <catalog>.sys." + procedure.name() + "(...))" : ""));
    }
    ProcedureArguments args = ProcedureArguments.bind(procedure, evaluate(session));
    try {
      return JavaConverters.asScalaBuffer(procedure.call(new ProcedureContext(session, (LagoonCatalog) plugin), args)).toSeq();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Procedure " + procedure.name() + " failed: " + e.getMessage(), e);
    }
  }

  /** Each argument's value: a constant expression, evaluated once. */
  private List<ProcedureArguments.Given> evaluate(SparkSession session) {
    List<NamedExpression> aliases = new ArrayList<>();
    for (int i = 0; i < argValues.size(); i++) {
      aliases.add((NamedExpression) new org.apache.spark.sql.Column(argValues.get(i)).as("a" + i).expr());
    }
    List<ProcedureArguments.Given> out = new ArrayList<>();
    if (aliases.isEmpty()) return out;
    LogicalPlan plan = new Project(JavaConverters.asScalaBuffer(aliases).toSeq(), new OneRowRelation());
    LogicalPlan analyzed;
    try {
      analyzed = session.sessionState().executePlan(plan, org.apache.spark.sql.execution.CommandExecutionMode.SKIP()).analyzed();
    } catch (Exception e) {
      // Spark's AnalysisException (checked in Java's eyes): a column or an unknown function.
      throw ProcedureArguments.refuse(procedure, "has an argument that is not a constant: " + e.getMessage());
    }
    List<NamedExpression> resolved = JavaConverters.seqAsJavaList(((Project) analyzed).projectList());
    for (int i = 0; i < resolved.size(); i++) {
      Expression e = ((Alias) resolved.get(i)).child();
      String name = argNames.get(i);
      if (!e.foldable()) {
        throw ProcedureArguments.refuse(procedure, "argument " + (name != null ? "'" + name + "'" : "#" + (i + 1))
            + " must be a constant, got " + argValues.get(i).sql());
      }
      out.add(new ProcedureArguments.Given(name, e.eval(null), e.dataType()));
    }
    return out;
  }

  @Override
  public Seq<Attribute> output() {
    return output;
  }

  @Override
  public Seq<LogicalPlan> children() {
    return (Seq<LogicalPlan>) (Seq<?>) scala.collection.immutable.Nil$.MODULE$;
  }

  @Override
  public LogicalPlan withNewChildrenInternal(scala.collection.IndexedSeq<LogicalPlan> children) {
    return this;
  }

  /** Spark's {@code Command} trait marks its nodes with the COMMAND pattern (a trait value Java must supply). */
  @Override
  public Seq<scala.Enumeration.Value> nodePatterns() {
    return (Seq<scala.Enumeration.Value>) (Seq<?>) JavaConverters.asScalaBuffer(
        List.of(org.apache.spark.sql.catalyst.trees.TreePattern$.MODULE$.COMMAND())).toSeq();
  }

  @Override
  public void org$apache$spark$sql$catalyst$plans$logical$Command$_setter_$nodePatterns_$eq(Seq<scala.Enumeration.Value> v) {
    // the value is nodePatterns() above
  }

  @Override
  public Map<String, org.apache.spark.sql.execution.metric.SQLMetric> metrics() {
    return scala.collection.immutable.Map$.MODULE$.empty();
  }

  @Override
  public LogicalPlan makeCopy(Object[] args) {
    return this;
  }

  @Override
  public LogicalPlan clone() {
    return this;
  }

  @Override
  public String simpleString(int maxFields) {
    return "CALL " + (catalogName == null ? "" : catalogName + ".") + "sys." + procedure.name() + "(" + argsText() + ")";
  }

  private String argsText() {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < argValues.size(); i++) {
      parts.add((argNames.get(i) == null ? "" : argNames.get(i) + " => ") + argValues.get(i).sql());
    }
    return String.join(", ", parts);
  }

  @Override
  public int productArity() {
    return 3;
  }

  @Override
  public Object productElement(int n) {
    switch (n) {
      case 0: return catalogName;
      case 1: return procedure.name();
      case 2: return argsText();
      default: throw new IndexOutOfBoundsException(Integer.toString(n));
    }
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof CallCommand;
  }
}
