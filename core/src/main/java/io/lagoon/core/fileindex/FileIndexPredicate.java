package io.lagoon.core.fileindex;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.index.BitSliceIndex;
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
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
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
 * columns. A bit-sliced index also holds every value exactly and decides comparisons
 * ({@code <, <=, >, >=}) besides, on integral, date and decimal columns.
 */
public final class FileIndexPredicate {
  private final Map<String, Map<String, FileIndexFile.Body>> indexes;
  /** The file's field for a current column name (same id and type), or null. */
  private final Function<String, DataField> fileField;
  private final Map<String, BloomFilterIndex> blooms = new HashMap<>();
  private final Map<String, BitmapIndex> bitmaps = new HashMap<>();
  private final Map<String, BitSliceIndex> bsis = new HashMap<>();

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
    org.roaringbitmap.RoaringBitmap rows = candidateRows(f);
    if (rows != null && rows.isEmpty()) return false;
    return mayMatchValues(f);
  }

  /**
   * The rows of the file that may match, by its bitmap and bit-sliced indexes (which know each
   * row's value), AND and OR combining them row by row; null when they cannot tell (every row may).
   * A returned bitmap may be shared with the index: not to be modified.
   */
  public org.roaringbitmap.RoaringBitmap candidateRows(Filter f) {
    if (f instanceof And) {
      org.roaringbitmap.RoaringBitmap a = candidateRows(((And) f).left());
      org.roaringbitmap.RoaringBitmap b = candidateRows(((And) f).right());
      return a == null ? b : b == null ? a : org.roaringbitmap.RoaringBitmap.and(a, b);
    }
    if (f instanceof Or) {
      org.roaringbitmap.RoaringBitmap a = candidateRows(((Or) f).left());
      org.roaringbitmap.RoaringBitmap b = candidateRows(((Or) f).right());
      return a == null || b == null ? null : org.roaringbitmap.RoaringBitmap.or(a, b);
    }
    if (f instanceof EqualTo) return rowsEqual(((EqualTo) f).attribute(), new Object[] {((EqualTo) f).value()});
    if (f instanceof EqualNullSafe) {
      EqualNullSafe e = (EqualNullSafe) f;
      return e.value() == null ? nullRows(e.attribute()) : rowsEqual(e.attribute(), new Object[] {e.value()});
    }
    if (f instanceof In) return rowsEqual(((In) f).attribute(), ((In) f).values());
    if (f instanceof IsNull) return nullRows(((IsNull) f).attribute());
    if (f instanceof IsNotNull) return nonNullRows(((IsNotNull) f).attribute());
    if (f instanceof GreaterThan) return rowsCompared(((GreaterThan) f).attribute(), ((GreaterThan) f).value(), true, 1);
    if (f instanceof GreaterThanOrEqual) {
      return rowsCompared(((GreaterThanOrEqual) f).attribute(), ((GreaterThanOrEqual) f).value(), true, 0);
    }
    if (f instanceof LessThan) return rowsCompared(((LessThan) f).attribute(), ((LessThan) f).value(), false, 1);
    if (f instanceof LessThanOrEqual) return rowsCompared(((LessThanOrEqual) f).attribute(), ((LessThanOrEqual) f).value(), false, 0);
    if (f instanceof Not) {
      Filter c = ((Not) f).child();
      if (c instanceof IsNull) return nonNullRows(((IsNull) c).attribute());
      if (c instanceof IsNotNull) return nullRows(((IsNotNull) c).attribute());
      String column = c instanceof EqualTo ? ((EqualTo) c).attribute() : c instanceof In ? ((In) c).attribute() : null;
      if (column == null) return null;
      Object[] values = c instanceof EqualTo ? new Object[] {((EqualTo) c).value()} : ((In) c).values();
      for (Object v : values) if (v == null) return null; // NOT (x = NULL): left to the reader
      org.roaringbitmap.RoaringBitmap equal = rowsEqual(column, values);
      org.roaringbitmap.RoaringBitmap nonNull = nonNullRows(column);
      return equal == null || nonNull == null ? null : org.roaringbitmap.RoaringBitmap.andNot(nonNull, equal);
    }
    return null;
  }

  /** Rows whose value is one of the values (nulls never equal), or null when undecidable. */
  private org.roaringbitmap.RoaringBitmap rowsEqual(String column, Object[] values) {
    BitmapIndex b = bitmap(column);
    BitSliceIndex s = bsi(column);
    if (b == null && s == null) return null;
    DataField field = fileField.apply(column);
    org.roaringbitmap.RoaringBitmap out = new org.roaringbitmap.RoaringBitmap();
    for (Object v : values) {
      if (v == null) continue;
      org.roaringbitmap.RoaringBitmap rows = null;
      BitmapIndex.Key k = b == null ? null : key(field.type(), v);
      if (k != null) {
        try {
          rows = b.rowsOf(k);
        } catch (IllegalArgumentException corrupt) {
          return null; // a bitmap that cannot be read decides nothing
        }
      }
      Long c = s == null ? null : bsiValue(field.type(), v);
      if (c != null) rows = rows == null ? s.equalTo(c) : org.roaringbitmap.RoaringBitmap.and(rows, s.equalTo(c));
      if (rows == null) return null; // a value neither index decides
      out.or(rows);
    }
    return out;
  }

  private org.roaringbitmap.RoaringBitmap nullRows(String column) {
    BitmapIndex b = bitmap(column);
    if (b != null) return readable(b);
    BitSliceIndex s = bsi(column);
    if (s == null) return null;
    org.roaringbitmap.RoaringBitmap all = org.roaringbitmap.RoaringBitmap.bitmapOfRange(0, s.rowCount());
    return org.roaringbitmap.RoaringBitmap.andNot(all, s.nonNullRows());
  }

  private org.roaringbitmap.RoaringBitmap nonNullRows(String column) {
    BitSliceIndex s = bsi(column);
    if (s != null) return s.nonNullRows();
    BitmapIndex b = bitmap(column);
    org.roaringbitmap.RoaringBitmap nulls = b == null ? null : readable(b);
    if (nulls == null) return null;
    org.roaringbitmap.RoaringBitmap all = org.roaringbitmap.RoaringBitmap.bitmapOfRange(0, b.rowCount());
    return org.roaringbitmap.RoaringBitmap.andNot(all, nulls);
  }

  /** The bitmap's null rows, or null when that bitmap cannot be read (it then decides nothing). */
  private static org.roaringbitmap.RoaringBitmap readable(BitmapIndex b) {
    try {
      return b.nullRows();
    } catch (IllegalArgumentException corrupt) {
      return null;
    }
  }

  /** Rows with {@code col >= value + strict} (atLeast) or {@code col <= value - strict}, by a bit-sliced index. */
  private org.roaringbitmap.RoaringBitmap rowsCompared(String column, Object value, boolean atLeast, int strict) {
    BitSliceIndex s = bsi(column);
    Long c = s == null || value == null ? null : bsiValue(fileField.apply(column).type(), value);
    if (c == null) return null;
    if (atLeast) return strict == 1 && c == Long.MAX_VALUE ? new org.roaringbitmap.RoaringBitmap() : s.atLeast(c + strict);
    return strict == 1 && c == Long.MIN_VALUE ? new org.roaringbitmap.RoaringBitmap() : s.atMost(c - strict);
  }

  /** By the Bloom filters, filter by filter (they cannot tell rows apart). */
  private boolean mayMatchValues(Filter f) {
    if (f instanceof And) return mayMatchValues(((And) f).left()) && mayMatchValues(((And) f).right());
    if (f instanceof Or) return mayMatchValues(((Or) f).left()) || mayMatchValues(((Or) f).right());
    if (f instanceof EqualTo) return mayContain(((EqualTo) f).attribute(), ((EqualTo) f).value());
    if (f instanceof EqualNullSafe) {
      Object v = ((EqualNullSafe) f).value();
      return v == null || mayContain(((EqualNullSafe) f).attribute(), v);
    }
    if (f instanceof In) {
      In in = (In) f;
      for (Object v : in.values()) if (v != null && mayContain(in.attribute(), v)) return true;
      // Every value proved absent (nulls never compare equal); without a filter nothing is proved.
      return bloom(in.attribute()) == null;
    }
    return true;
  }

  private boolean mayContain(String column, Object value) {
    if (value == null) return false; // col = NULL is never true
    BloomFilterIndex bloom = bloom(column);
    if (bloom == null) return true;
    Long hash = hash(fileField.apply(column).type(), value);
    return hash == null || bloom.mightContain(hash);
  }

  private BitmapIndex bitmap(String column) {
    return index(column, BitmapIndex.TYPE, bitmaps, (body, field) -> {
      BitmapIndex.Width width = FileIndexOptions.bitmapWidth(field.type().root());
      return width == null ? null : BitmapIndex.read(body.data(), body.offset(), body.length(), width);
    });
  }

  /**
   * The column's index of one type in this file, read once; null when the file has none for the
   * column or it cannot be read (then it decides nothing).
   */
  private <T> T index(String column, String type, Map<String, T> cache,
                      java.util.function.BiFunction<FileIndexFile.Body, DataField, T> read) {
    if (cache.containsKey(column)) return cache.get(column);
    T out = null;
    DataField field = fileField.apply(column);
    if (field != null && indexes.containsKey(field.name())) {
      FileIndexFile.Body body = indexes.get(field.name()).get(type);
      if (body != null) {
        try {
          out = read.apply(body, field);
        } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
          out = null; // unreadable: no index
        }
      }
    }
    cache.put(column, out);
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

  private BitSliceIndex bsi(String column) {
    return index(column, BitSliceIndex.TYPE, bsis, (body, field) -> FileIndexOptions.bsiType(field.type())
        ? BitSliceIndex.read(body.data(), body.offset(), body.length()) : null);
  }


  /**
   * The value as the bit-sliced index holds it for the column's type, or null when not decidable
   * (timestamps, whose number depends on a zone; a decimal not exact at the column's scale).
   */
  static Long bsiValue(PaimonType type, Object v) {
    switch (type.root()) {
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT:
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
            ? ((Number) v).longValue() : null;
      case DATE:
        if (v instanceof LocalDate) return ((LocalDate) v).toEpochDay();
        if (v instanceof java.sql.Date) return ((java.sql.Date) v).toLocalDate().toEpochDay();
        return null;
      case DECIMAL:
        if (!(v instanceof java.math.BigDecimal)) return null;
        try {
          return ((java.math.BigDecimal) v).setScale(type.scale()).unscaledValue().longValueExact();
        } catch (ArithmeticException e) {
          return null;
        }
      default:
        return null;
    }
  }

  private BloomFilterIndex bloom(String column) {
    return index(column, BloomFilterIndex.TYPE, blooms, (body, field) ->
        BloomFilterIndex.read(body.data(), body.offset(), body.length()));
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
    java.util.Map<String, DataField> bsi = new HashMap<>();
    try {
      for (FileIndexOptions.BloomColumn c : FileIndexOptions.bloomColumns(schema)) bloom.put(c.field().name(), c.field());
      for (FileIndexOptions.IndexedColumn c : FileIndexOptions.bitmapColumns(schema)) bitmap.put(c.field().name(), c.field());
      for (FileIndexOptions.IndexedColumn c : FileIndexOptions.bsiColumns(schema)) {
        if (BSI_DECIDED.contains(c.field().type().root())) bsi.put(c.field().name(), c.field());
      }
    } catch (IllegalArgumentException e) {
      return out; // options another engine set that Lagoon does not take: no index use to show
    }
    java.util.Set<String> keys = new java.util.HashSet<>(schema.primaryKeys());
    for (Filter f : filters) {
      if (keysOnly && !keys.containsAll(java.util.Arrays.asList(f.references()))) continue;
      if (decides(f, bloom, bitmap) || decidesRange(f, bsi)) out.add(f);
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

  /** Whether the bit-sliced indexes decide the filter (comparisons, equality, IN, nulls, AND/OR/NOT of them). */
  private static boolean decidesRange(Filter f, Map<String, DataField> bsi) {
    if (bsi.isEmpty()) return false;
    if (f instanceof And) return decidesRange(((And) f).left(), bsi) || decidesRange(((And) f).right(), bsi);
    if (f instanceof Or) return decidesRange(((Or) f).left(), bsi) && decidesRange(((Or) f).right(), bsi);
    if (f instanceof Not) {
      Filter c = ((Not) f).child();
      return (c instanceof EqualTo || c instanceof In || c instanceof IsNull || c instanceof IsNotNull)
          && decidesRange(c, bsi);
    }
    String[] refs = f.references();
    boolean simple = f instanceof EqualTo || f instanceof In || f instanceof IsNull || f instanceof IsNotNull
        || f instanceof GreaterThan || f instanceof GreaterThanOrEqual || f instanceof LessThan
        || f instanceof LessThanOrEqual;
    return simple && refs.length == 1 && bsi.containsKey(refs[0]);
  }

  /** The column types whose values {@link #bsiValue} decides. */
  private static final java.util.Set<TypeRoot> BSI_DECIDED = java.util.EnumSet.of(TypeRoot.TINYINT, TypeRoot.SMALLINT,
      TypeRoot.INT, TypeRoot.BIGINT, TypeRoot.DATE, TypeRoot.DECIMAL);

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
