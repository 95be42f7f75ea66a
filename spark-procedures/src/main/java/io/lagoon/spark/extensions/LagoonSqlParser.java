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

  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    return CallParser.isCall(sqlText) ? CallPlans.plan(CallParser.parse(sqlText), spark) : spark.parsePlan(sqlText);
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
