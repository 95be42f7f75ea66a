package io.lagoon.spark.procedures;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * One parameter of a procedure, with Paimon's name: its Spark type, whether it must be given, and
 * (for an optional one) what applies when it is not, as the README and errors say it.
 */
public record ProcedureParameter(String name, DataType type, boolean required, String whenAbsent) {
  public static ProcedureParameter required(String name, DataType type) {
    return new ProcedureParameter(name, type, true, null);
  }

  public static ProcedureParameter optional(String name, DataType type, String whenAbsent) {
    return new ProcedureParameter(name, type, false, whenAbsent);
  }

  /** {@code name => <string>} or {@code [name => <int>]}, for the form an error shows. */
  String form() {
    String t = type.equals(DataTypes.StringType) ? "string" : type.equals(DataTypes.IntegerType) ? "int"
        : type.equals(DataTypes.LongType) ? "long" : type.equals(DataTypes.BooleanType) ? "boolean"
        : type.equals(DataTypes.TimestampType) ? "timestamp" : type.simpleString();
    String s = name + " => <" + t + ">";
    return required ? s : "[" + s + "]";
  }
}
