package io.lagoon.spark.procedures;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;

/** Turns a parsed {@code CALL} into its plan: the procedure found by name, each value parsed by Spark. */
public final class CallPlans {
  private CallPlans() {
  }

  /** The catalog a call names, or the session's current one. */
  public static String catalogOf(CallParser.Call call) {
    List<String> name = call.name();
    if (name.size() == 3) return name.get(0);
    return org.apache.spark.sql.SparkSession.active().sessionState().catalogManager().currentCatalog().name();
  }

  /** Whether a catalog of that name is configured and is Lagoon's (loading it if needed). */
  public static boolean isLagoon(String catalog) {
    try {
      return org.apache.spark.sql.SparkSession.active().sessionState().catalogManager().catalog(catalog)
          instanceof io.lagoon.spark.LagoonCatalog;
    } catch (RuntimeException notConfigured) {
      return false;
    }
  }

  public static CallCommand plan(CallParser.Call call, ParserInterface spark) throws ParseException {
    List<String> name = call.name();
    String written = String.join(".", name);
    if (name.size() < 2 || name.size() > 3 || !name.get(name.size() - 2).equalsIgnoreCase("sys")) {
      throw new IllegalArgumentException("CALL " + written + ": procedures are named [catalog.]sys.<procedure>, "
          + "e.g. CALL lake.sys.create_tag(...); the procedures are " + Procedures.names());
    }
    Procedure procedure = Procedures.get(name.get(name.size() - 1));
    List<String> names = new ArrayList<>();
    List<Expression> values = new ArrayList<>();
    for (CallParser.RawArgument a : call.arguments()) {
      names.add(a.name());
      try {
        values.add(spark.parseExpression(a.value()));
      } catch (ParseException e) {
        throw new IllegalArgumentException("Procedure " + procedure.name() + ": argument "
            + (a.name() != null ? "'" + a.name() + "'" : "'" + a.value() + "'") + " is not a valid value: " + e.getMessage()
            + ". Usage: " + procedure.form(), e);
      }
    }
    return new CallCommand(name.size() == 3 ? name.get(0) : null, procedure, names, values);
  }
}
