package io.lagoon.spark.read;

import io.lagoon.core.scan.ColumnBounds;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.TypeUtils;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import scala.math.Ordering;

/**
 * The values a MERGE's source holds of the target column its condition equates with the source:
 * Spark's runtime filter gives them to the scan on the driver ({@code key IN (...)}) after the
 * scan's readers were built, so they travel to the tasks in a broadcast set here, which the
 * readers hold. Until they are given, any value may match.
 */
final class SourceKeys implements Serializable {
  /** The position of the key in the rows the reader returns. */
  private final int index;
  private final DataType type;
  private Broadcast<Set<Object>> values;
  private transient Set<Object> local;

  SourceKeys(int index, DataType type) {
    this.index = index;
    this.type = type;
  }

  /**
   * Whether rows of this type can be looked up in the source's set: the values must compare equal
   * in SQL exactly when they are equal as Java objects (so not floating point, where 0.0 = -0.0,
   * nor binary).
   */
  static boolean supported(DataType type) {
    return type instanceof IntegralType || type instanceof StringType || type instanceof DateType
        || type instanceof TimestampType || type instanceof TimestampNTZType || type instanceof BooleanType
        || type instanceof DecimalType;
  }

  /**
   * The values of {@code key} the runtime filters give ({@code key IN (...)} or {@code key = v}),
   * kept in common with {@code before}; {@code before} when none names the key.
   */
  private static Set<Object> given(String key, Predicate[] predicates, Set<Object> before) {
    Set<Object> out = before;
    for (Predicate p : predicates) {
      if (!p.name().equals("IN") && !p.name().equals("=")) continue; // reading more is always safe
      if (p.children().length == 0 || !(p.children()[0] instanceof NamedReference)) continue;
      String[] names = ((NamedReference) p.children()[0]).fieldNames();
      if (names.length != 1 || !names[0].equals(key)) continue;
      List<Object> these = KeyPruningScan.valuesOf(p);
      if (these == null) continue;
      if (out == null) {
        out = new HashSet<>(these);
      } else {
        out = new HashSet<>(out);
        out.retainAll(these);
      }
    }
    return out;
  }

  /**
   * The source's values the runtime filters give a scan, kept in common with {@code before}, and
   * the scan narrowed to the files whose range of {@code key} holds one; {@code before} when no
   * filter names the key.
   */
  static Set<Object> narrow(LagoonScan scan, String key, Predicate[] predicates, Set<Object> before) {
    Set<Object> given = given(key, predicates, before);
    if (given != null && given != before) keepFilesHolding(scan, key, given);
    return given;
  }

  /** Keeps only the files of {@code scan} whose range of {@code key} holds one of the values (where it has stats). */
  private static void keepFilesHolding(LagoonScan scan, String key, Set<Object> values) {
    ColumnBounds bounds = ColumnBounds.of(scan.table(), key);
    if (bounds == null) return;
    @SuppressWarnings("unchecked")
    Ordering<Object> order = (Ordering<Object>) TypeUtils.getInterpretedOrdering(bounds.type());
    Object[] sorted = values.toArray();
    Arrays.sort(sorted, order);
    scan.keepKeyRanges(f -> KeyPruningScan.holdsOne(bounds.of(f), sorted, order));
  }

  /** Driver side: ships the values to the tasks (before they are sent). */
  synchronized void ship(Set<Object> given) {
    if (values != null) values.destroy();
    values = SparkSession.active().sparkContext().broadcast(given, scala.reflect.ClassTag$.MODULE$.apply(Set.class));
  }

  /** Whether the row's key is one of the source's values (any while they are unknown; never NULL). */
  boolean admits(InternalRow row) {
    if (values == null) return true;
    if (local == null) local = values.value();
    return !row.isNullAt(index) && local.contains(row.get(index, type));
  }
}
