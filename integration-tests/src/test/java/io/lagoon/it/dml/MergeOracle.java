package io.lagoon.it.dml;

import java.util.ArrayList;
import java.util.List;

/**
 * The expected result of a DELETE, UPDATE or MERGE, computed by plain Spark SQL over a copy of
 * the table's rows (a temp view), independently of Lagoon: each statement form is rewritten into
 * the query that returns the rows the table holds afterwards. Conditions and expressions are
 * written against the target alias {@code t} and the source alias {@code s}.
 */
final class MergeOracle {
  static final List<String> COLUMNS = List.of("id", "v", "n", "p");

  /** One WHEN clause: its kind, optional condition, and for updates/inserts the column expressions. */
  static final class When {
    final String kind; // MATCHED, NOT_MATCHED, NOT_MATCHED_BY_SOURCE
    final String condition; // null = always
    final String action; // UPDATE, DELETE, INSERT
    final List<String> values; // per column, for UPDATE (null = unchanged) and INSERT

    When(String kind, String condition, String action, List<String> values) {
      this.kind = kind;
      this.condition = condition;
      this.action = action;
      this.values = values;
    }

    String sql() {
      String head = "WHEN " + kind.replace('_', ' ') + (condition == null ? "" : " AND " + condition) + " THEN ";
      switch (action) {
        case "DELETE":
          return head + "DELETE";
        case "UPDATE": {
          List<String> sets = new ArrayList<>();
          for (int i = 0; i < COLUMNS.size(); i++) {
            if (values.get(i) != null) sets.add("t." + COLUMNS.get(i) + " = " + values.get(i));
          }
          return head + "UPDATE SET " + String.join(", ", sets);
        }
        default:
          return head + "INSERT (" + String.join(", ", COLUMNS) + ") VALUES (" + String.join(", ", values) + ")";
      }
    }
  }

  static When matchedUpdate(String condition, String... values) {
    return new When("MATCHED", condition, "UPDATE", List.of(values).stream().map(v -> v.isEmpty() ? null : v)
        .collect(java.util.stream.Collectors.toList()));
  }

  static When matchedDelete(String condition) {
    return new When("MATCHED", condition, "DELETE", null);
  }

  static When notMatchedInsert(String condition, String... values) {
    return new When("NOT_MATCHED", condition, "INSERT", List.of(values));
  }

  static When bySourceUpdate(String condition, String... values) {
    return new When("NOT_MATCHED_BY_SOURCE", condition, "UPDATE", List.of(values).stream()
        .map(v -> v.isEmpty() ? null : v).collect(java.util.stream.Collectors.toList()));
  }

  static When bySourceDelete(String condition) {
    return new When("NOT_MATCHED_BY_SOURCE", condition, "DELETE", null);
  }

  static String mergeStatement(String target, String source, String on, List<When> clauses) {
    StringBuilder sb = new StringBuilder("MERGE INTO " + target + " t USING " + source + " s ON " + on);
    for (When w : clauses) sb.append(' ').append(w.sql());
    return sb.toString();
  }

  /**
   * The rows after the MERGE: target rows joined to source rows on the condition; each pair takes
   * the first WHEN MATCHED clause whose condition holds, each unmatched target row the first
   * NOT MATCHED BY SOURCE clause, each unmatched source row the first NOT MATCHED clause.
   */
  static String expectedMerge(String targetCopy, String source, String on, List<When> clauses) {
    StringBuilder action = new StringBuilder("CASE WHEN t.__t AND s.__s THEN CASE");
    appendWhen(action, clauses, "MATCHED", "KEEP");
    action.append(" WHEN t.__t THEN CASE");
    appendWhen(action, clauses, "NOT_MATCHED_BY_SOURCE", "KEEP");
    action.append(" ELSE CASE");
    appendWhen(action, clauses, "NOT_MATCHED", "SKIP");
    action.append(" END");
    // The join's columns, renamed t_x / s_x, so the outer query can still tell them apart.
    List<String> joined = new ArrayList<>();
    for (String c : COLUMNS) {
      joined.add("t." + c + " AS t_" + c);
      joined.add("s." + c + " AS s_" + c);
    }
    List<String> outputs = new ArrayList<>();
    for (int c = 0; c < COLUMNS.size(); c++) {
      StringBuilder col = new StringBuilder("CASE __action");
      for (int i = 0; i < clauses.size(); i++) {
        When w = clauses.get(i);
        if (w.action.equals("DELETE")) continue;
        String value = w.values.get(c) == null ? "t." + COLUMNS.get(c) : w.values.get(c);
        col.append(" WHEN 'A").append(i).append("' THEN ").append(flat(value));
      }
      col.append(" ELSE t_").append(COLUMNS.get(c)).append(" END AS ").append(COLUMNS.get(c));
      boolean anyValue = col.indexOf(" WHEN ") >= 0;
      outputs.add(anyValue ? col.toString() : "t_" + COLUMNS.get(c) + " AS " + COLUMNS.get(c));
    }
    List<String> dropped = new ArrayList<>(List.of("'SKIP'"));
    for (int i = 0; i < clauses.size(); i++) if (clauses.get(i).action.equals("DELETE")) dropped.add("'A" + i + "'");
    return "SELECT " + String.join(", ", outputs) + " FROM (SELECT " + String.join(", ", joined) + ", " + action
        + " AS __action FROM (SELECT *, true AS __t FROM " + targetCopy + ") t FULL OUTER JOIN "
        + "(SELECT *, true AS __s FROM " + source + ") s ON " + on + ") j WHERE __action NOT IN ("
        + String.join(", ", dropped) + ")";
  }

  /** An expression over t.x and s.x, over the join's renamed columns t_x and s_x. */
  private static String flat(String expression) {
    return expression.replaceAll("\\b([ts])\\.(\\w+)", "$1_$2");
  }

  private static void appendWhen(StringBuilder sb, List<When> clauses, String kind, String otherwise) {
    boolean any = false;
    for (int i = 0; i < clauses.size(); i++) {
      When w = clauses.get(i);
      if (!w.kind.equals(kind)) continue;
      any = true;
      sb.append(" WHEN ").append(w.condition == null ? "true" : "coalesce(" + w.condition + ", false)")
          .append(" THEN 'A").append(i).append("'");
    }
    sb.append(any ? "" : " WHEN true THEN '" + otherwise + "'").append(" ELSE '").append(otherwise).append("' END");
  }

  /** Rows after DELETE ... WHERE cond (rows where it is not true stay). */
  static String expectedDelete(String targetCopy, String condition) {
    return "SELECT " + String.join(", ", COLUMNS) + " FROM " + targetCopy + " t WHERE NOT coalesce(" + condition + ", false)";
  }

  /** Rows after UPDATE ... SET (per column, null = unchanged) WHERE cond. */
  static String expectedUpdate(String targetCopy, List<String> sets, String condition) {
    List<String> cols = new ArrayList<>();
    for (int i = 0; i < COLUMNS.size(); i++) {
      String c = COLUMNS.get(i);
      cols.add(sets.get(i) == null ? c : "CASE WHEN coalesce(" + condition + ", false) THEN " + sets.get(i) + " ELSE " + c
          + " END AS " + c);
    }
    return "SELECT " + String.join(", ", cols) + " FROM " + targetCopy + " t";
  }

  /** How many target rows the ON condition matches with more than one source row (must be 0). */
  static String multipleMatches(String targetCopy, String source, String on) {
    return "SELECT count(*) FROM (SELECT t.__rid FROM (SELECT *, monotonically_increasing_id() AS __rid FROM "
        + targetCopy + ") t JOIN " + source + " s ON " + on + " GROUP BY t.__rid HAVING count(*) > 1)";
  }
}
