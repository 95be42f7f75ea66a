package io.lagoon.spark.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.compact.FileKeys;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.util.TypeUtils;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.math.Ordering;

/**
 * The scan of a row-level statement's target, a primary-key table: at run time it takes the keys
 * the statement looks for ({@code k IN (...)} on the first key column, from the MERGE source, see
 * Lagoon's SQL extensions) and reads only the files whose key range holds one of them.
 */
public final class KeyPruningScan extends LagoonScan implements SupportsRuntimeV2Filtering {
  private final String keyColumn;
  private final DataType keyType;
  private final FileKeys keys;

  KeyPruningScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                 List<Filter> filters) {
    super(table, tableSchema, required, metadata, filters, null, false);
    this.keyColumn = table.schema().trimmedPrimaryKeys().get(0);
    this.keyType = SparkTypes.toSpark(table.schema().field(keyColumn).type());
    this.keys = FileKeys.of(table.schema());
  }

  @Override
  public NamedReference[] filterAttributes() {
    return new NamedReference[] {Expressions.column(keyColumn)};
  }

  @Override
  public void filter(Predicate[] predicates) {
    for (Predicate p : predicates) {
      List<Object> values = valuesOf(p);
      if (values == null) continue;
      @SuppressWarnings("unchecked")
      Ordering<Object> order = (Ordering<Object>) TypeUtils.getInterpretedOrdering(keyType);
      Object[] sorted = values.toArray();
      Arrays.sort(sorted, order);
      keepKeyRanges(f -> holdsOne(f, sorted, order));
      return;
    }
  }

  /** Whether a value of {@code sorted} lies in the file's range of the first key column. */
  private boolean holdsOne(DataFileMeta f, Object[] sorted, Ordering<Object> order) {
    Object min = keys.minKey(f).get(0, keyType);
    Object max = keys.maxKey(f).get(0, keyType);
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) { // first value >= min
      int mid = (lo + hi) >>> 1;
      if (order.compare(sorted[mid], min) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < sorted.length && order.compare(sorted[lo], max) <= 0;
  }

  /** The values of {@code key IN (...)} or {@code key = v}; null for any other predicate. */
  private List<Object> valuesOf(Predicate p) {
    if (!p.name().equals("IN") && !p.name().equals("=")) return null;
    Expression[] children = p.children();
    if (children.length == 0 || !(children[0] instanceof NamedReference)) return null;
    String[] names = ((NamedReference) children[0]).fieldNames();
    if (names.length != 1 || !names[0].equals(keyColumn)) return null;
    List<Object> out = new ArrayList<>();
    for (int i = 1; i < children.length; i++) {
      if (!(children[i] instanceof Literal)) return null;
      Object v = ((Literal<?>) children[i]).value();
      if (v != null) out.add(v);
    }
    return out;
  }
}
