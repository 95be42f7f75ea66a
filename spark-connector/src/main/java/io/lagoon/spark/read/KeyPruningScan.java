package io.lagoon.spark.read;

import io.lagoon.core.scan.ColumnBounds;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.util.TypeUtils;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import scala.math.Ordering;

/**
 * The scan of a row-level statement's target: at run time it takes the values the statement looks
 * for ({@code c IN (...)}, from the MERGE source, see Lagoon's SQL extensions) and reads only the
 * files whose range of {@code c} holds one of them ({@link ColumnBounds}: the first key column of a
 * primary-key table, any column with range stats of an append table).
 */
public final class KeyPruningScan extends LagoonScan implements SupportsRuntimeV2Filtering {
  /** The columns files can be pruned by, with their bounds in each file. */
  private final Map<String, ColumnBounds> columns = new LinkedHashMap<>();

  KeyPruningScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                 List<Filter> filters) {
    super(table, tableSchema, required, metadata, filters, null, false);
    for (DataField f : table.schema().fields()) {
      ColumnBounds bounds = ColumnBounds.of(table, f.name());
      if (bounds != null) columns.put(f.name(), bounds);
    }
  }

  /** The columns a target scan of this table can be pruned by at run time. */
  public static List<String> prunableColumns(FileStoreTable table) {
    List<String> out = new ArrayList<>();
    for (DataField f : table.schema().fields()) if (ColumnBounds.of(table, f.name()) != null) out.add(f.name());
    return out;
  }

  /** The prunable columns the scan reads (Spark resolves each against the scan's output). */
  /** Dropping files by key range can leave a single file of a merged section, which is read raw. */
  @Override
  boolean mayDropFilesAtRunTime() {
    return true;
  }

  @Override
  public NamedReference[] filterAttributes() {
    java.util.Set<String> read = new java.util.HashSet<>(Arrays.asList(readSchema().fieldNames()));
    return columns.keySet().stream().filter(read::contains).map(Expressions::column).toArray(NamedReference[]::new);
  }

  @Override
  public void filter(Predicate[] predicates) {
    for (Predicate p : predicates) {
      String column = columnOf(p);
      if (column == null) continue; // not a value filter: reading more files is always safe
      ColumnBounds bounds = columns.get(column);
      List<Object> values = valuesOf(p);
      if (values == null) continue;
      @SuppressWarnings("unchecked")
      Ordering<Object> order = (Ordering<Object>) TypeUtils.getInterpretedOrdering(bounds.type());
      Object[] sorted = values.toArray();
      Arrays.sort(sorted, order);
      keepKeyRanges(f -> holdsOne(bounds.of(f), sorted, order));
    }
  }

  /** Whether a value of {@code sorted} lies in the file's range (an unknown range holds any). */
  static boolean holdsOne(ColumnBounds.Range range, Object[] sorted, Ordering<Object> order) {
    if (range == null) return true;
    if (range == ColumnBounds.NO_VALUES) return false;
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) { // first value >= min
      int mid = (lo + hi) >>> 1;
      if (order.compare(sorted[mid], range.min) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < sorted.length && order.compare(sorted[lo], range.max) <= 0;
  }

  /** The prunable column of {@code c IN (...)} or {@code c = v}; null for any other predicate. */
  private String columnOf(Predicate p) {
    if (!p.name().equals("IN") && !p.name().equals("=")) return null;
    Expression[] children = p.children();
    if (children.length == 0 || !(children[0] instanceof NamedReference)) return null;
    String[] names = ((NamedReference) children[0]).fieldNames();
    return names.length == 1 && columns.containsKey(names[0]) ? names[0] : null;
  }

  /** The non-null literal values of the predicate; null when one is not a literal. */
  static List<Object> valuesOf(Predicate p) {
    Expression[] children = p.children();
    List<Object> out = new ArrayList<>();
    for (int i = 1; i < children.length; i++) {
      if (!(children[i] instanceof Literal)) return null;
      Object v = ((Literal<?>) children[i]).value();
      if (v != null) out.add(v);
    }
    return out;
  }
}
