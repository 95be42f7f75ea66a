package io.lagoon.spark.procedures;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** A procedure's fixed parts: name, parameters, output columns and description. */
abstract class SimpleProcedure implements Procedure {
  /** Paimon's answer of most procedures: one row, {@code result = true}. */
  static final StructType RESULT = new StructType(new StructField[] {
      new StructField("result", DataTypes.BooleanType, true, Metadata.empty())});

  private final String name;
  private final List<ProcedureParameter> parameters;
  private final StructType output;
  private final String description;

  SimpleProcedure(String name, StructType output, String description, ProcedureParameter... parameters) {
    this.name = name;
    this.parameters = List.of(parameters);
    this.output = output;
    this.description = description;
  }

  static ProcedureParameter table() {
    return ProcedureParameter.required("table", DataTypes.StringType);
  }

  static List<Row> done() {
    return List.of(RowFactory.create(true));
  }

  static StructType columns(StructField... fields) {
    return new StructType(fields);
  }

  static StructField column(String name, org.apache.spark.sql.types.DataType type, boolean nullable) {
    return new StructField(name, type, nullable, Metadata.empty());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<ProcedureParameter> parameters() {
    return parameters;
  }

  @Override
  public StructType output() {
    return output;
  }

  @Override
  public String description() {
    return description;
  }
}
