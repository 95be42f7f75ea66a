package io.lagoon.spark.extensions;

import io.lagoon.spark.procedures.CallParser;
import io.lagoon.spark.procedures.CallPlans;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.collection.Seq;

/**
 * Spark's parser plus {@code CALL}: a statement starting with the keyword CALL becomes a
 * procedure call; every other text goes to Spark's parser unchanged.
 */
final class LagoonSqlParser implements ParserInterface {
  private final ParserInterface spark;

  LagoonSqlParser(ParserInterface spark) {
    this.spark = spark;
  }

  /**
   * A CALL on a Lagoon catalog is Lagoon's; a CALL on another catalog goes to the parser below
   * (another engine's extensions, such as Paimon's, may know it), and if that cannot parse it either,
   * the error says the catalog is not Lagoon's.
   */
  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    if (!CallParser.isCall(sqlText)) return spark.parsePlan(sqlText);
    CallParser.Call call = CallParser.parse(sqlText);
    String catalog = CallPlans.catalogOf(call);
    if (CallPlans.isLagoon(catalog)) return CallPlans.plan(call, spark);
    try {
      return spark.parsePlan(sqlText);
    } catch (ParseException e) {
      throw new IllegalArgumentException("CALL " + String.join(".", call.name()) + ": catalog '" + catalog
          + "' is not a Lagoon catalog, and no other SQL extension takes this CALL", e);
    }
  }

  @Override
  public Expression parseExpression(String sqlText) throws ParseException {
    return spark.parseExpression(sqlText);
  }

  @Override
  public TableIdentifier parseTableIdentifier(String sqlText) throws ParseException {
    return spark.parseTableIdentifier(sqlText);
  }

  @Override
  public FunctionIdentifier parseFunctionIdentifier(String sqlText) throws ParseException {
    return spark.parseFunctionIdentifier(sqlText);
  }

  @Override
  public Seq<String> parseMultipartIdentifier(String sqlText) throws ParseException {
    return spark.parseMultipartIdentifier(sqlText);
  }

  @Override
  public LogicalPlan parseQuery(String sqlText) throws ParseException {
    return spark.parseQuery(sqlText);
  }

  @Override
  public StructType parseTableSchema(String sqlText) throws ParseException {
    return spark.parseTableSchema(sqlText);
  }

  @Override
  public DataType parseDataType(String sqlText) throws ParseException {
    return spark.parseDataType(sqlText);
  }
}
