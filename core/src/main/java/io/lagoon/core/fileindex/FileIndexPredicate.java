package io.lagoon.core.fileindex;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.index.BitmapIndex;
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
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Whether a pushed filter may match a data file, by the file's indexes: an index can only prove
 * absence, so anything it cannot decide may match. A Bloom filter decides {@code col = v},
 * {@code col <=> v} (v not null) and {@code col IN (...)} on integral, date, string and binary
 * columns, combined through AND and OR. It is never used where equality is not equality of the
 * hashed form: floating-point columns (0.0 equals -0.0, NaN), CHAR (padding), timestamps (a value's
 * zone decides its number), decimals and booleans (Paimon builds no Bloom filter for them). A
 * bitmap index holds every distinct value of the file exactly, so it also decides
 * {@code IS [NOT] NULL} (every bitmap type) and {@code NOT (col = v)}, {@code NOT col IN (...)}
 * (no match when the file holds no other non-null value), on integral, date, string and boolean
 * columns.
 */
public final class FileIndexPredicate {
  private final Map<String, Map<String, FileIndexFile.Body>> indexes;
  /** The file's field for a current column name (same id and type), or null. */
  private final Function<String, DataField> fileField;
  private final Map<String, BloomFilterIndex> blooms = new HashMap<>();
  private final Map<String, BitmapIndex> bitmaps = new HashMap<>();

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
      return v == null ? mayMatch(new IsNull(((EqualNullSafe) f).attribute())) : mayContain(((EqualNullSafe) f).attribute(), v);
    }
    if (f instanceof In) {
      In in = (In) f;
      for (Object v : in.values()) if (v != null && mayContain(in.attribute(), v)) return true;
      // Every value proved absent (nulls never compare equal); without an index nothing is proved.
      return !hasIndex(in.attribute());
    }
    if (f instanceof IsNull) {
      BitmapIndex b = bitmap(((IsNull) f).attribute());
      return b == null || !b.nullRows().isEmpty();
    }
    if (f instanceof IsNotNull) {
      BitmapIndex b = bitmap(((IsNotNull) f).attribute());
      return b == null || b.distinctValues() > 0;
    }
    if (f instanceof Not) return mayMatchNot(((Not) f).child());
    return true;
  }

  /** {@code NOT f}: decided by a bitmap index for equality and IN (true on rows with another value). */
  private boolean mayMatchNot(Filter f) {
    if (f instanceof IsNull) return mayMatch(new IsNotNull(((IsNull) f).attribute()));
    if (f instanceof IsNotNull) return mayMatch(new IsNull(((IsNotNull) f).attribute()));
    String column;
    Object[] values;
    if (f instanceof EqualTo) {
      column = ((EqualTo) f).attribute();
      values = new Object[] {((EqualTo) f).value()};
    } else if (f instanceof In) {
      column = ((In) f).attribute();
      values = ((In) f).values();
    } else {
      return true;
    }
    BitmapIndex b = bitmap(column);
    if (b == null) return true;
    java.util.Set<BitmapIndex.Key> excluded = new java.util.HashSet<>();
    for (Object v : values) {
      BitmapIndex.Key k = v == null ? null : key(fileField.apply(column).type(), v);
      if (k == null) return true; // a null or undecidable value: leave it to the reader
      excluded.add(k);
    }
    return !excluded.containsAll(b.keys());
  }

  private boolean hasIndex(String column) {
    return bloom(column) != null || bitmap(column) != null;
  }

  private boolean mayContain(String column, Object value) {
    if (value == null) return false; // col = NULL is never true
    DataField field = fileField.apply(column);
    BloomFilterIndex bloom = bloom(column);
    if (bloom != null) {
      Long hash = hash(field.type(), value);
      if (hash != null && !bloom.mightContain(hash)) return false;
    }
    BitmapIndex bitmap = bitmap(column);
    if (bitmap != null) {
      BitmapIndex.Key key = key(field.type(), value);
      if (key != null && !bitmap.contains(key)) return false;
    }
    return true;
  }

  private BitmapIndex bitmap(String column) {
    if (bitmaps.containsKey(column)) return bitmaps.get(column);
    BitmapIndex out = null;
    DataField field = fileField.apply(column);
    if (field != null && indexes.containsKey(field.name())) {
      FileIndexFile.Body body = indexes.get(field.name()).get(BitmapIndex.TYPE);
      BitmapIndex.Width width = FileIndexOptions.bitmapWidth(field.type().root());
      if (body != null && width != null) {
        try {
          out = BitmapIndex.read(body.data(), body.offset(), body.length(), width);
        } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
          out = null; // unreadable: no index
        }
      }
    }
    bitmaps.put(column, out);
    return out;
  }

  /**
   * The value's bitmap key as the index encodes it for the column's type, or null when not
   * decidable (CHAR padding and timestamp zones as for the Bloom filter; a value out of the
   * column's range).
   */
  static BitmapIndex.Key key(PaimonType type, Object v) {
    switch (type.root()) {
      case BOOLEAN: return v instanceof Boolean ? BitmapIndex.Key.ofBoolean((Boolean) v) : null;
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT: {
        if (!(v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)) return null;
        long n = ((Number) v).longValue();
        switch (type.root()) {
          case TINYINT: return n == (byte) n ? BitmapIndex.Key.ofByte((byte) n) : null;
          case SMALLINT: return n == (short) n ? BitmapIndex.Key.ofShort((short) n) : null;
          case INT: return n == (int) n ? BitmapIndex.Key.ofInt((int) n) : null;
          default: return BitmapIndex.Key.ofLong(n);
        }
      }
      case DATE:
        if (v instanceof LocalDate) return BitmapIndex.Key.ofInt((int) ((LocalDate) v).toEpochDay());
        if (v instanceof java.sql.Date) return BitmapIndex.Key.ofInt((int) ((java.sql.Date) v).toLocalDate().toEpochDay());
        return null;
      case VARCHAR:
        return v instanceof String ? BitmapIndex.Key.of(((String) v).getBytes(StandardCharsets.UTF_8)) : null;
      default:
        return null;
    }
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
   * The pushed filters the table's indexes can decide (for {@code EXPLAIN}): equality, null-safe
   * equality and IN on a Bloom- or bitmap-indexed column of a type the index decides, IS [NOT] NULL
   * and NOT of equality or IN on a bitmap-indexed one, and AND / OR of such filters (AND: either
   * side; OR: both).
   *
   * @param keysOnly only filters on primary-key columns (what the scan planner lets indexes decide
   *     on primary-key tables whose merged rows may be no file's record, see {@code ScanPlanner})
   */
  public static java.util.List<Filter> usable(io.lagoon.core.schema.TableSchema schema, java.util.List<Filter> filters,
                                              boolean keysOnly) {
    java.util.List<Filter> out = new java.util.ArrayList<>();
    java.util.Map<String, DataField> bloom = new HashMap<>();
    java.util.Map<String, DataField> bitmap = new HashMap<>();
    try {
      for (FileIndexOptions.BloomColumn c : FileIndexOptions.bloomColumns(schema)) bloom.put(c.field().name(), c.field());
      for (FileIndexOptions.BitmapColumn c : FileIndexOptions.bitmapColumns(schema)) bitmap.put(c.field().name(), c.field());
    } catch (IllegalArgumentException e) {
      return out; // options another engine set that Lagoon does not take: no index use to show
    }
    java.util.Set<String> keys = new java.util.HashSet<>(schema.primaryKeys());
    for (Filter f : filters) {
      if (keysOnly && !keys.containsAll(java.util.Arrays.asList(f.references()))) continue;
      if (decides(f, bloom, bitmap)) out.add(f);
    }
    return out;
  }

  private static boolean decides(Filter f, Map<String, DataField> bloom, Map<String, DataField> bitmap) {
    if (f instanceof And) return decides(((And) f).left(), bloom, bitmap) || decides(((And) f).right(), bloom, bitmap);
    if (f instanceof Or) return decides(((Or) f).left(), bloom, bitmap) && decides(((Or) f).right(), bloom, bitmap);
    if (f instanceof IsNull) return bitmap.containsKey(((IsNull) f).attribute());
    if (f instanceof IsNotNull) return bitmap.containsKey(((IsNotNull) f).attribute());
    if (f instanceof Not) {
      Filter c = ((Not) f).child();
      if (c instanceof IsNull || c instanceof IsNotNull) return decides(c, bloom, bitmap);
      String column = c instanceof EqualTo ? ((EqualTo) c).attribute() : c instanceof In ? ((In) c).attribute() : null;
      DataField field = column == null ? null : bitmap.get(column);
      return field != null && BITMAP_DECIDED.contains(field.type().root());
    }
    String column = f instanceof EqualTo ? ((EqualTo) f).attribute()
        : f instanceof EqualNullSafe ? ((EqualNullSafe) f).attribute() : f instanceof In ? ((In) f).attribute() : null;
    if (column == null) return false;
    DataField b = bloom.get(column);
    DataField m = bitmap.get(column);
    return b != null && DECIDED.contains(b.type().root()) || m != null && BITMAP_DECIDED.contains(m.type().root());
  }

  /** The column types whose equality {@link #key} decides. */
  private static final java.util.Set<TypeRoot> BITMAP_DECIDED = java.util.EnumSet.of(TypeRoot.BOOLEAN, TypeRoot.TINYINT,
      TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT, TypeRoot.DATE, TypeRoot.VARCHAR);

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
