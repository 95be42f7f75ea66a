package io.lagoon.spark.procedures;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The arguments of one call bound to the procedure's parameters (by position or by name) and
 * converted to their types. Every refusal names the argument and shows the procedure's form.
 */
public final class ProcedureArguments {
  private final Procedure procedure;
  private final Map<String, Object> values;

  private ProcedureArguments(Procedure procedure, Map<String, Object> values) {
    this.procedure = procedure;
    this.values = values;
  }

  /** An argument as given: its name (null when positional) and its evaluated value (null for NULL). */
  public record Given(String name, Object value, DataType type) {
    public Given(String name, Object value) {
      this(name, value, null);
    }
  }

  public static ProcedureArguments bind(Procedure procedure, List<Given> given) {
    List<ProcedureParameter> params = procedure.parameters();
    Map<String, ProcedureParameter> byName = new LinkedHashMap<>();
    for (ProcedureParameter p : params) byName.put(p.name(), p);
    Map<String, Given> raw = new HashMap<>();
    for (int i = 0; i < given.size(); i++) {
      Given g = given.get(i);
      ProcedureParameter p;
      if (g.name() == null) {
        if (i >= params.size()) {
          throw refuse(procedure, "takes at most " + params.size() + " arguments, got " + given.size());
        }
        p = params.get(i);
      } else {
        p = byName.get(g.name().toLowerCase(Locale.ROOT));
        if (p == null) {
          throw refuse(procedure, "has no parameter '" + g.name() + "'; its parameters are " + byName.keySet());
        }
      }
      if (raw.containsKey(p.name())) throw refuse(procedure, "got argument '" + p.name() + "' twice");
      raw.put(p.name(), g);
    }
    Map<String, Object> values = new HashMap<>();
    for (ProcedureParameter p : params) {
      Given g = raw.get(p.name());
      Object v = g == null ? null : g.value();
      if (v == null) {
        if (p.required()) throw refuse(procedure, "needs argument '" + p.name() + "'");
        continue;
      }
      values.put(p.name(), convert(procedure, p, v, g.type()));
    }
    return new ProcedureArguments(procedure, values);
  }

  private static Object convert(Procedure procedure, ProcedureParameter p, Object v, DataType given) {
    DataType t = p.type();
    Object value = v instanceof UTF8String ? v.toString() : v instanceof Decimal ? ((Decimal) v).toJavaBigDecimal() : v;
    if (t.equals(DataTypes.TimestampType)) {
      // Epoch millis: from a TIMESTAMP value, or a local date-time string in the session time zone.
      if (given != null && (given.equals(DataTypes.TimestampType) || given.equals(DataTypes.TimestampNTZType))) {
        long micros = (Long) value;
        if (given.equals(DataTypes.TimestampNTZType)) {
          return LocalDateTimes.toMillis(java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
              (int) Math.floorMod(micros, 1_000_000L) * 1000, java.time.ZoneOffset.UTC));
        }
        return Math.floorDiv(micros, 1000L);
      }
      if (value instanceof String s) {
        Long millis = LocalDateTimes.parseMillis(s);
        if (millis != null) return millis;
      }
    } else if (t.equals(DataTypes.StringType)) {
      if (value instanceof String || value instanceof Number) return value.toString();
    } else if (t.equals(DataTypes.IntegerType) || t.equals(DataTypes.LongType)) {
      BigDecimal n = wholeNumber(value);
      if (n != null) {
        try {
          return t.equals(DataTypes.IntegerType) ? (Object) n.intValueExact() : (Object) n.longValueExact();
        } catch (ArithmeticException tooLarge) {
          throw refuse(procedure, "argument '" + p.name() + "' is out of range for " + t.simpleString() + ": " + value);
        }
      }
    } else if (t.equals(DataTypes.BooleanType)) {
      if (value instanceof Boolean) return value;
      if (value instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
        return Boolean.parseBoolean(s);
      }
    } else {
      throw new IllegalStateException("parameter type " + t + " of " + procedure.name());
    }
    throw refuse(procedure, "argument '" + p.name() + "' must be " + article(t) + ", got "
        + (value instanceof String ? "'" + value + "'" : value + " (" + value.getClass().getSimpleName() + ")"));
  }

  private static String article(DataType t) {
    return t.equals(DataTypes.IntegerType) || t.equals(DataTypes.LongType) ? "a whole number"
        : t.equals(DataTypes.BooleanType) ? "true or false"
        : t.equals(DataTypes.TimestampType) ? "a time such as '2024-06-01 12:30:00' (session time zone) or a TIMESTAMP"
        : "a string";
  }

  private static BigDecimal wholeNumber(Object value) {
    try {
      BigDecimal n = value instanceof String s ? new BigDecimal(s.trim())
          : value instanceof BigDecimal b ? b
          : value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
              ? BigDecimal.valueOf(((Number) value).longValue()) : null;
      if (n == null) return null;
      return n.stripTrailingZeros().scale() <= 0 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static IllegalArgumentException refuse(Procedure procedure, String what) {
    return new IllegalArgumentException("Procedure " + procedure.name() + " " + what + ". Usage: " + procedure.form());
  }

  /** A refusal of this call's argument {@code name} (a value of the right type that makes no sense). */
  public IllegalArgumentException invalid(String name, String why) {
    return refuse(procedure, "argument '" + name + "' " + why);
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public String string(String name) {
    return (String) require(name);
  }

  public String string(String name, String absent) {
    return has(name) ? (String) values.get(name) : absent;
  }

  public Integer integer(String name) {
    return (Integer) values.get(name);
  }

  public Long longValue(String name) {
    return (Long) values.get(name);
  }

  /** A time argument, as epoch millis. */
  public Long millis(String name) {
    return (Long) values.get(name);
  }

  public boolean bool(String name, boolean absent) {
    return has(name) ? (Boolean) values.get(name) : absent;
  }

  /** A comma-separated list argument ({@code tag => 'a,b'}), blanks dropped. */
  public List<String> list(String name) {
    List<String> out = new ArrayList<>();
    for (String s : string(name).split(",")) if (!s.isBlank()) out.add(s.strip());
    if (out.isEmpty()) throw invalid(name, "names nothing");
    return out;
  }

  private Object require(String name) {
    Object v = values.get(name);
    if (v == null) throw refuse(procedure, "needs argument '" + name + "'");
    return v;
  }

  @Override
  public String toString() {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
  }
}
