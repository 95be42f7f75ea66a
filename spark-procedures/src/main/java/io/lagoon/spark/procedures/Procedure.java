package io.lagoon.spark.procedures;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * A procedure run by {@code CALL [catalog.]sys.<name>(...)}: it checks its arguments and turns
 * them into an operation of the table (core does the work), and answers with rows, as the
 * Paimon procedure of the same name does.
 */
public interface Procedure {
  String name();

  /** The parameters in positional order. */
  List<ProcedureParameter> parameters();

  /** The columns of the rows {@link #call} returns. */
  StructType output();

  /** One line on what it does, for the README's list. */
  String description();

  List<Row> call(ProcedureContext context, ProcedureArguments args) throws Exception;

  /** {@code CALL sys.create_tag(table => <string>, tag => <string>, [snapshot => <long>])}. */
  default String form() {
    return "CALL sys." + name() + "(" + parameters().stream().map(ProcedureParameter::form)
        .collect(Collectors.joining(", ")) + ")";
  }
}
