package io.lagoon.core.fileindex;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.index.BloomFilterIndex;
import io.lagoon.index.FileIndexFile;
import io.lagoon.index.ValueHashes;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.Or;

/**
 * Whether a pushed filter may match a data file, by the file's indexes: an index can only prove
 * absence, so anything it cannot decide may match. A Bloom filter decides {@code col = v},
 * {@code col <=> v} (v not null) and {@code col IN (...)} on integral, date, string and binary
 * columns, combined through AND and OR. It is never used where equality is not equality of the
 * hashed form: floating-point columns (0.0 equals -0.0, NaN), CHAR (padding), timestamps (a value's
 * zone decides its number), decimals and booleans (Paimon builds no Bloom filter for them).
 */
public final class FileIndexPredicate {
  private final Map<String, Map<String, FileIndexFile.Body>> indexes;
  /** The file's field for a current column name (same id and type), or null. */
  private final Function<String, DataField> fileField;
  private final Map<String, BloomFilterIndex> blooms = new HashMap<>();

  /**
   * @param indexes the file's indexes by the file schema's column names
   * @param fileField the file's field for a current column name: same field id and type root, else null
   */
  public FileIndexPredicate(Map<String, Map<String, FileIndexFile.Body>> indexes, Function<String, DataField> fileField) {
    this.indexes = indexes;
    this.fileField = fileField;
  }

  /** False only when the indexes prove that no row of the file matches. */
  public boolean mayMatch(Filter f) {
    if (f instanceof And) return mayMatch(((And) f).left()) && mayMatch(((And) f).right());
    if (f instanceof Or) return mayMatch(((Or) f).left()) || mayMatch(((Or) f).right());
    if (f instanceof EqualTo) return mayContain(((EqualTo) f).attribute(), ((EqualTo) f).value());
    if (f instanceof EqualNullSafe) {
      Object v = ((EqualNullSafe) f).value();
      return v == null || mayContain(((EqualNullSafe) f).attribute(), v);
    }
    if (f instanceof In) {
      In in = (In) f;
      for (Object v : in.values()) if (v != null && mayContain(in.attribute(), v)) return true;
      // Every value proved absent (nulls never compare equal); without an index nothing is proved.
      return !hasIndex(in.attribute());
    }
    return true;
  }

  private boolean hasIndex(String column) {
    return bloom(column) != null;
  }

  private boolean mayContain(String column, Object value) {
    if (value == null) return false; // col = NULL is never true
    BloomFilterIndex bloom = bloom(column);
    if (bloom == null) return true;
    DataField field = fileField.apply(column);
    Long hash = hash(field.type(), value);
    return hash == null || bloom.mightContain(hash);
  }

  private BloomFilterIndex bloom(String column) {
    if (blooms.containsKey(column)) return blooms.get(column);
    BloomFilterIndex out = null;
    DataField field = fileField.apply(column);
    if (field != null && indexes.containsKey(field.name())) {
      FileIndexFile.Body body = indexes.get(field.name()).get(BloomFilterIndex.TYPE);
      if (body != null) {
        try {
          out = BloomFilterIndex.read(body.data(), body.offset(), body.length());
        } catch (IllegalArgumentException e) {
          out = null; // unreadable: no index
        }
      }
    }
    blooms.put(column, out);
    return out;
  }

  /**
   * The pushed filters the table's Bloom filter indexes can decide (for {@code EXPLAIN}): equality,
   * null-safe equality and IN on an indexed column of a type the index decides, and AND / OR of
   * such filters (AND: either side; OR: both). Append tables only, as in {@link #mayMatch}.
   */
  public static java.util.List<Filter> usable(io.lagoon.core.schema.TableSchema schema, java.util.List<Filter> filters) {
    java.util.List<Filter> out = new java.util.ArrayList<>();
    if (!schema.primaryKeys().isEmpty()) return out;
    java.util.Map<String, DataField> indexed = new HashMap<>();
    try {
      for (FileIndexOptions.BloomColumn c : FileIndexOptions.bloomColumns(schema)) indexed.put(c.field().name(), c.field());
    } catch (IllegalArgumentException e) {
      return out; // options another engine set that Lagoon does not take: no index use to show
    }
    for (Filter f : filters) if (decides(f, indexed)) out.add(f);
    return out;
  }

  private static boolean decides(Filter f, Map<String, DataField> indexed) {
    if (f instanceof And) return decides(((And) f).left(), indexed) || decides(((And) f).right(), indexed);
    if (f instanceof Or) return decides(((Or) f).left(), indexed) && decides(((Or) f).right(), indexed);
    String column = f instanceof EqualTo ? ((EqualTo) f).attribute()
        : f instanceof EqualNullSafe ? ((EqualNullSafe) f).attribute() : f instanceof In ? ((In) f).attribute() : null;
    DataField field = column == null ? null : indexed.get(column);
    if (field == null) return false;
    return DECIDED.contains(field.type().root());
  }

  /** The column types whose equality {@link #hash} decides. */
  private static final java.util.Set<TypeRoot> DECIDED = java.util.EnumSet.of(TypeRoot.TINYINT, TypeRoot.SMALLINT,
      TypeRoot.INT, TypeRoot.BIGINT, TypeRoot.DATE, TypeRoot.VARCHAR, TypeRoot.BINARY, TypeRoot.VARBINARY);

  /** The value's hash as the index computed it for the column's type, or null when not decidable. */
  static Long hash(PaimonType type, Object v) {
    TypeRoot root = type.root();
    switch (root) {
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT:
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
          return ValueHashes.ofLong(((Number) v).longValue());
        }
        return null;
      case DATE:
        if (v instanceof LocalDate) return ValueHashes.ofLong(((LocalDate) v).toEpochDay());
        if (v instanceof java.sql.Date) return ValueHashes.ofLong(((java.sql.Date) v).toLocalDate().toEpochDay());
        return null;
      case VARCHAR:
        return v instanceof String ? ValueHashes.ofBytes(((String) v).getBytes(StandardCharsets.UTF_8)) : null;
      case BINARY:
      case VARBINARY:
        return v instanceof byte[] ? ValueHashes.ofBytes((byte[]) v) : null;
      default:
        return null;
    }
  }
}
