package io.lagoon.spark.procedures.compact;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.table.PartitionPaths;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.SparkTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * Which partitions a compaction takes: Paimon's {@code partitions} text ({@code 'p=1,q=a;p=2'}:
 * {@code ,} is AND, {@code ;} OR, values as partition folders spell them) or a SQL {@code where}
 * over partition columns, evaluated on each partition's values.
 */
final class PartitionSelection {
  private PartitionSelection() {}

  /** Every partition. */
  static Predicate<ManifestEntry> all() {
    return (Predicate<ManifestEntry> & Serializable) e -> true;
  }

  static Predicate<ManifestEntry> ofSpec(FileStoreTable table, String spec) {
    List<DataField> fields = table.schema().partitionFields();
    List<String> names = new ArrayList<>();
    for (DataField f : fields) names.add(f.name());
    List<Map<Integer, String>> alternatives = new ArrayList<>();
    for (String alternative : spec.split(";")) {
      if (alternative.isBlank()) continue;
      Map<Integer, String> equalities = new LinkedHashMap<>();
      for (String pair : alternative.split(",")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) throw bad(spec, "'" + pair.strip() + "' is not column=value");
        String column = pair.substring(0, eq).strip();
        int at = -1;
        for (int i = 0; i < names.size(); i++) if (names.get(i).equalsIgnoreCase(column)) at = i;
        if (at < 0) throw bad(spec, "'" + column + "' is not a partition column of " + table.fullName() + "; they are " + names);
        equalities.put(at, pair.substring(eq + 1).strip());
      }
      alternatives.add(equalities);
    }
    if (alternatives.isEmpty()) throw bad(spec, "it names no partition");
    List<PaimonType> types = table.schema().partitionTypes();
    String defaultName = table.options().partitionDefaultName();
    return (Predicate<ManifestEntry> & Serializable) e -> {
      InternalRow row = BinaryRows.deserialize(e.partition, types);
      for (Map<Integer, String> alt : alternatives) {
        boolean all = true;
        for (Map.Entry<Integer, String> eq : alt.entrySet()) {
          String v = row.isNullAt(eq.getKey()) ? defaultName : PartitionPaths.valueString(row, eq.getKey(), types.get(eq.getKey()));
          if (!v.equals(eq.getValue())) {
            all = false;
            break;
          }
        }
        if (all) return true;
      }
      return false;
    };
  }

  private static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException("Procedure compact: argument 'partitions' = '" + spec + "' is not valid: " + why
        + " (the form is 'p=1,q=a;p=2': ',' joins columns of one partition, ';' separates partitions)");
  }

  /** A SQL condition on partition columns, resolved and checked here, evaluated per partition. */
  static Predicate<ManifestEntry> ofWhere(SparkSession session, FileStoreTable table, String where) {
    List<DataField> fields = table.schema().partitionFields();
    List<String> names = new ArrayList<>();
    for (DataField f : fields) names.add(f.name());
    Seq<Attribute> attrs = (Seq<Attribute>) (Seq<?>) DataTypeUtils.toAttributes(SparkTypes.toSpark(fields));
    Expression condition;
    try {
      Expression parsed = session.sessionState().sqlParser().parseExpression(where);
      LogicalPlan plan = new Filter(parsed, new LocalRelation(attrs, (Seq<InternalRow>) (Seq<?>) scala.collection.immutable.Nil$.MODULE$, false));
      condition = ((Filter) session.sessionState().executePlan(plan,
          org.apache.spark.sql.execution.CommandExecutionMode.SKIP()).analyzed()).condition();
    } catch (Exception e) {
      throw new IllegalArgumentException("Procedure compact: argument 'where' = '" + where + "' is not a condition on the "
          + "partition columns " + names + " of " + table.fullName() + ": " + e.getMessage(), e);
    }
    if (!condition.deterministic()) {
      throw new IllegalArgumentException("Procedure compact: argument 'where' = '" + where + "' is not deterministic");
    }
    // Bound to the partition columns' positions; used on the driver only, while planning.
    org.apache.spark.sql.catalyst.expressions.BasePredicate predicate =
        org.apache.spark.sql.catalyst.expressions.Predicate$.MODULE$.create(condition, attrs);
    List<PaimonType> types = table.schema().partitionTypes();
    return e -> predicate.eval(BinaryRows.deserialize(e.partition, types));
  }

  /** Keeps only partitions none of whose files is younger than {@code idleMillis} (files' creation times are local). */
  static Predicate<ManifestEntry> idle(Iterable<ManifestEntry> live, long idleMillis, FileStoreTable table) {
    Map<String, Long> newest = new LinkedHashMap<>();
    for (ManifestEntry e : live) {
      long t = e.file.creationTimeMillis == null ? Long.MAX_VALUE : e.file.creationTimeMillis;
      newest.merge(java.util.HexFormat.of().formatHex(e.partition), t, Math::max);
    }
    long localNow = io.lagoon.core.manifest.DataFileMeta.localNowMillis();
    return (Predicate<ManifestEntry> & Serializable) e ->
        newest.getOrDefault(java.util.HexFormat.of().formatHex(e.partition), Long.MAX_VALUE) < localNow - idleMillis;
  }
}
