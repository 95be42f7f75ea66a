package io.lagoon.core.fileindex;

import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.MemorySize;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The file-index options of a table, as Paimon names them: {@code file-index.bloom-filter.columns}
 * with per-column {@code file-index.bloom-filter.<col>.fpp} (default 0.01 for filters sized by the
 * file, Paimon's 0.1 with {@code items}) and
 * {@code .items}, {@code file-index.bitmap.columns} (written in bitmap version 1, which Paimon 0.9
 * and 1.x read, whatever {@code file-index.bitmap.version} says), and
 * {@code file-index.in-manifest-threshold} (indexes up to this size are
 * embedded in the manifest entry, larger ones written beside the data file; default 500 bytes).
 * Without {@code items}, a file's filter is sized for the distinct values the file holds, so it
 * stays small where Paimon's default (one million items) would make it as large as the data.
 */
public final class FileIndexOptions {
  public static final String BLOOM_COLUMNS = "file-index.bloom-filter.columns";
  public static final String BITMAP_COLUMNS = "file-index.bitmap.columns";
  public static final String BSI_COLUMNS = "file-index.bsi.columns";
  public static final String IN_MANIFEST_THRESHOLD = "file-index.in-manifest-threshold";
  /** Types Paimon builds Bloom filters for. */
  static final Set<TypeRoot> BLOOM_TYPES = EnumSet.of(TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT,
      TypeRoot.FLOAT, TypeRoot.DOUBLE, TypeRoot.DATE, TypeRoot.CHAR, TypeRoot.VARCHAR, TypeRoot.BINARY, TypeRoot.VARBINARY,
      TypeRoot.TIMESTAMP, TypeRoot.TIMESTAMP_LTZ);

  /** One Bloom-indexed column: its position in the row, field, fpp, and fixed items (0: from the file). */
  record BloomColumn(int position, DataField field, double fpp, long items) {
  }

  /** One column with a bitmap or bit-sliced index: its position in the row and field. */
  record IndexedColumn(int position, DataField field) {
  }

  /** Types Paimon builds bit-sliced indexes for (decimals whose unscaled value is a long). */
  static boolean bsiType(io.lagoon.core.types.PaimonType type) {
    switch (type.root()) {
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT:
      case DATE:
      case TIMESTAMP:
      case TIMESTAMP_LTZ: return true;
      case DECIMAL: return type.precision() <= 18;
      default: return false;
    }
  }

  /**
   * The columns with a bit-sliced index (empty without the option).
   *
   * @throws IllegalArgumentException naming the option when a column is unknown or of a type
   *     without bsi indexes
   */
  static List<IndexedColumn> bsiColumns(TableSchema schema) {
    return bsiColumns(schema.fields(), schema.options());
  }

  private static List<IndexedColumn> bsiColumns(List<DataField> fields, Map<String, String> o) {
    return typedColumns(fields, o, BSI_COLUMNS, f -> bsiType(f.type()),
        "no bsi index (integers, dates, timestamps and decimals of precision up to 18 have)");
  }

  /** The columns an option lists, each checked to exist and to be of a type the index takes. */
  private static List<IndexedColumn> typedColumns(List<DataField> fields, Map<String, String> o, String option,
                                                  java.util.function.Predicate<DataField> takes, String otherwise) {
    List<IndexedColumn> out = new ArrayList<>();
    for (int i : positions(fields, o, option)) {
      DataField f = fields.get(i);
      if (!takes.test(f)) {
        throw new IllegalArgumentException("Table option '" + option + "': column '" + f.name() + "' is "
            + f.type().root() + ", which has " + otherwise);
      }
      out.add(new IndexedColumn(i, f));
    }
    return out;
  }

  /** How Paimon encodes a value of each type it builds bitmaps for; null for the others. */
  static io.lagoon.index.BitmapIndex.Width bitmapWidth(TypeRoot root) {
    switch (root) {
      case BOOLEAN:
      case TINYINT: return io.lagoon.index.BitmapIndex.Width.ONE;
      case SMALLINT: return io.lagoon.index.BitmapIndex.Width.TWO;
      case INT:
      case DATE: return io.lagoon.index.BitmapIndex.Width.FOUR;
      case BIGINT:
      case TIMESTAMP:
      case TIMESTAMP_LTZ: return io.lagoon.index.BitmapIndex.Width.EIGHT;
      case CHAR:
      case VARCHAR: return io.lagoon.index.BitmapIndex.Width.VARIABLE;
      default: return null;
    }
  }

  /**
   * The bitmap-indexed columns of the schema (empty without the option).
   *
   * @throws IllegalArgumentException naming the option when a column is unknown or of a type
   *     without bitmap indexes
   */
  static List<IndexedColumn> bitmapColumns(TableSchema schema) {
    return bitmapColumns(schema.fields(), schema.options());
  }

  private static List<IndexedColumn> bitmapColumns(List<DataField> fields, Map<String, String> o) {
    return typedColumns(fields, o, BITMAP_COLUMNS, f -> bitmapWidth(f.type().root()) != null,
        "no bitmap index (booleans, integers, dates, timestamps and strings have)");
  }

  /** The positions of the columns an option lists, each checked to exist. */
  private static List<Integer> positions(List<DataField> fields, Map<String, String> o, String option) {
    String columns = o.get(option);
    List<Integer> out = new ArrayList<>();
    if (columns == null || columns.isBlank()) return out;
    for (String raw : columns.split(",")) {
      String name = raw.strip();
      int i = -1;
      for (int j = 0; j < fields.size(); j++) if (fields.get(j).name().equals(name)) i = j;
      if (i < 0) {
        throw new IllegalArgumentException("Table option '" + option + "' names column '" + name
            + "', which the table does not have");
      }
      out.add(i);
    }
    return out;
  }

  private FileIndexOptions() {}

  /**
   * The Bloom-indexed columns of the schema (empty without the option).
   *
   * @throws IllegalArgumentException naming the option when a column is unknown or of a type
   *     without Bloom filters, or an fpp or items value is out of range
   */
  static List<BloomColumn> bloomColumns(TableSchema schema) {
    return bloomColumns(schema.fields(), schema.options());
  }

  private static List<BloomColumn> bloomColumns(List<DataField> fields, Map<String, String> o) {
    List<BloomColumn> out = new ArrayList<>();
    for (int i : positions(fields, o, BLOOM_COLUMNS)) {
      DataField f = fields.get(i);
      String name = f.name();
      if (!BLOOM_TYPES.contains(f.type().root())) {
        throw new IllegalArgumentException("Table option '" + BLOOM_COLUMNS + "': column '" + name + "' is "
            + f.type().root() + ", which has no Bloom filter index (integers, floating point, dates, timestamps, "
            + "strings and binary have)");
      }
      String prefix = "file-index.bloom-filter." + name + ".";
      // With items set the filter is sized as Paimon sizes it (its default fpp); without, for the
      // file's distinct values, at a lower default fpp (see SIZED_DEFAULT_FPP).
      double fpp = parseDouble(o, prefix + "fpp", o.containsKey(prefix + "items")
          ? io.lagoon.index.BloomFilterIndex.DEFAULT_FPP : io.lagoon.index.BloomFilterIndex.SIZED_DEFAULT_FPP);
      if (!(fpp > 0 && fpp < 1)) {
        throw new IllegalArgumentException("Table option '" + prefix + "fpp' must be between 0 and 1 (exclusive), got "
            + o.get(prefix + "fpp"));
      }
      long items = (long) parseDouble(o, prefix + "items", 0);
      if (o.containsKey(prefix + "items") && items <= 0) {
        throw new IllegalArgumentException("Table option '" + prefix + "items' must be positive, got "
            + o.get(prefix + "items"));
      }
      out.add(new BloomColumn(i, f, fpp, items));
    }
    return out;
  }

  /** Index bytes up to which the index is embedded in the manifest entry. */
  public static long inManifestThreshold(TableSchema schema) {
    return inManifestThreshold(schema.options());
  }

  private static long inManifestThreshold(Map<String, String> options) {
    return MemorySize.parse(options.getOrDefault(IN_MANIFEST_THRESHOLD, "500 b"), IN_MANIFEST_THRESHOLD);
  }

  /** Checks the options at CREATE / ALTER, before anything is written. */
  public static void validate(List<DataField> fields, Map<String, String> options) {
    bloomColumns(fields, options);
    bitmapColumns(fields, options);
    bsiColumns(fields, options);
    inManifestThreshold(options);
  }

  private static double parseDouble(Map<String, String> o, String key, double dflt) {
    String v = o.get(key);
    if (v == null) return dflt;
    try {
      return Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Table option '" + key + "' must be a number, got '" + v + "'");
    }
  }
}
