package io.lagoon.core.fileindex;

import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.TypeRoot;
import io.lagoon.index.BitSliceIndex;
import io.lagoon.index.BitmapIndex;
import io.lagoon.index.BloomFilterIndex;
import io.lagoon.index.FileIndexFile;
import io.lagoon.index.ValueHashes;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Builds one data file's indexes while its rows are written: the hash of every non-null value of
 * each Bloom-indexed column is kept (8 bytes a row), and when the file closes each filter is sized
 * for the file's distinct hashes (or the column's {@code items}) and filled, so a small file gets
 * a small filter that Paimon's readers read all the same. Hashes are Paimon's
 * ({@link ValueHashes}): timestamps by epoch millis up to precision 3, micros above. Each
 * bitmap-indexed column collects its values' rows as they come ({@link BitmapIndex}, keys as
 * Paimon encodes them, timestamps as the Bloom filter hashes them), and each column with a
 * bit-sliced index its values as longs ({@link BitSliceIndex}).
 */
public final class FileIndexBuilder {
  private final List<FileIndexOptions.BloomColumn> columns;
  private final long[][] hashes;
  private final List<FileIndexOptions.IndexedColumn> bitmapColumns;
  private final BitmapIndex.Builder[] bitmaps;
  private final List<FileIndexOptions.IndexedColumn> bsiColumns;
  private final BitSliceIndex.Builder[] bsis;
  private int rows;

  private FileIndexBuilder(List<FileIndexOptions.BloomColumn> columns, List<FileIndexOptions.IndexedColumn> bitmapColumns,
                           List<FileIndexOptions.IndexedColumn> bsiColumns) {
    this.columns = columns;
    this.hashes = new long[columns.size()][];
    for (int i = 0; i < hashes.length; i++) hashes[i] = new long[256];
    this.bitmapColumns = bitmapColumns;
    this.bitmaps = new BitmapIndex.Builder[bitmapColumns.size()];
    this.bsiColumns = bsiColumns;
    this.bsis = new BitSliceIndex.Builder[bsiColumns.size()];
    resetBitmaps();
  }

  private void resetBitmaps() {
    for (int i = 0; i < bitmaps.length; i++) {
      bitmaps[i] = new BitmapIndex.Builder(FileIndexOptions.bitmapWidth(bitmapColumns.get(i).field().type().root()));
    }
    for (int i = 0; i < bsis.length; i++) bsis[i] = new BitSliceIndex.Builder();
  }

  /** A builder for the table's indexes, or null when it has none. */
  public static FileIndexBuilder of(TableSchema schema) {
    List<FileIndexOptions.BloomColumn> columns = FileIndexOptions.bloomColumns(schema);
    List<FileIndexOptions.IndexedColumn> bitmapColumns = FileIndexOptions.bitmapColumns(schema);
    List<FileIndexOptions.IndexedColumn> bsiColumns = FileIndexOptions.bsiColumns(schema);
    return columns.isEmpty() && bitmapColumns.isEmpty() && bsiColumns.isEmpty() ? null
        : new FileIndexBuilder(columns, bitmapColumns, bsiColumns);
  }

  public void add(InternalRow row) {
    for (int c = 0; c < bitmaps.length; c++) {
      FileIndexOptions.IndexedColumn col = bitmapColumns.get(c);
      int p = col.position();
      bitmaps[c].add(row.isNullAt(p) ? null : key(col.field().type(), row, p));
    }
    for (int c = 0; c < bsis.length; c++) {
      FileIndexOptions.IndexedColumn col = bsiColumns.get(c);
      int p = col.position();
      bsis[c].add(row.isNullAt(p) ? null : bsiValue(col.field().type(), row, p));
    }
    if (hashes.length > 0 && rows == hashes[0].length) {
      for (int c = 0; c < hashes.length; c++) hashes[c] = Arrays.copyOf(hashes[c], rows * 2);
    }
    for (int c = 0; c < columns.size(); c++) {
      FileIndexOptions.BloomColumn col = columns.get(c);
      int p = col.position();
      // A null gets hash 0: equality never looks for null, so it only costs one false positive.
      hashes[c][rows] = row.isNullAt(p) ? 0 : hash(col, row, p);
    }
    rows++;
  }

  private static long hash(FileIndexOptions.BloomColumn col, InternalRow row, int p) {
    TypeRoot root = col.field().type().root();
    switch (root) {
      case TINYINT: return ValueHashes.ofLong(row.getByte(p));
      case SMALLINT: return ValueHashes.ofLong(row.getShort(p));
      case INT:
      case DATE: return ValueHashes.ofLong(row.getInt(p));
      case BIGINT: return ValueHashes.ofLong(row.getLong(p));
      case FLOAT: return ValueHashes.ofFloat(row.getFloat(p));
      case DOUBLE: return ValueHashes.ofDouble(row.getDouble(p));
      case CHAR:
      case VARCHAR: {
        // Hash the string's bytes where they are: no copy per row.
        UTF8String s = row.getUTF8String(p);
        if (s.getBaseObject() instanceof byte[] b) {
          return ValueHashes.ofBytes(b, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
        }
        return ValueHashes.ofBytes(s.getBytes());
      }
      case BINARY:
      case VARBINARY: return ValueHashes.ofBytes(row.getBinary(p));
      case TIMESTAMP:
      case TIMESTAMP_LTZ: {
        long micros = row.getLong(p);
        return ValueHashes.ofLong(col.field().type().precision() <= 3 ? Math.floorDiv(micros, 1000L) : micros);
      }
      default: throw new IllegalStateException("No Bloom filter for " + root);
    }
  }

  /** A non-null value's bitmap key, as Paimon encodes it for the column's type. */
  static BitmapIndex.Key key(io.lagoon.core.types.PaimonType type, InternalRow row, int p) {
    switch (type.root()) {
      case BOOLEAN: return BitmapIndex.Key.ofBoolean(row.getBoolean(p));
      case TINYINT: return BitmapIndex.Key.ofByte(row.getByte(p));
      case SMALLINT: return BitmapIndex.Key.ofShort(row.getShort(p));
      case INT:
      case DATE: return BitmapIndex.Key.ofInt(row.getInt(p));
      case BIGINT: return BitmapIndex.Key.ofLong(row.getLong(p));
      case TIMESTAMP:
      case TIMESTAMP_LTZ: {
        long micros = row.getLong(p);
        return BitmapIndex.Key.ofLong(type.precision() <= 3 ? Math.floorDiv(micros, 1000L) : micros);
      }
      case CHAR:
      case VARCHAR: return BitmapIndex.Key.of(row.getUTF8String(p).getBytes());
      default: throw new IllegalStateException("No bitmap index for " + type.root());
    }
  }

  /** A non-null value as the bit-sliced index holds it: integers, epoch days, timestamps, unscaled decimals. */
  static long bsiValue(io.lagoon.core.types.PaimonType type, InternalRow row, int p) {
    switch (type.root()) {
      case TINYINT: return row.getByte(p);
      case SMALLINT: return row.getShort(p);
      case INT:
      case DATE: return row.getInt(p);
      case BIGINT: return row.getLong(p);
      case TIMESTAMP:
      case TIMESTAMP_LTZ: {
        long micros = row.getLong(p);
        return type.precision() <= 3 ? Math.floorDiv(micros, 1000L) : micros;
      }
      case DECIMAL: return row.getDecimal(p, type.precision(), type.scale()).toUnscaledLong();
      default: throw new IllegalStateException("No bsi index for " + type.root());
    }
  }

  /** The file's index container, and forgets the rows for the next file. */
  public byte[] finish() {
    Map<String, Map<String, byte[]>> out = new LinkedHashMap<>();
    for (int c = 0; c < bitmaps.length; c++) {
      out.computeIfAbsent(bitmapColumns.get(c).field().name(), k -> new LinkedHashMap<>())
          .put(BitmapIndex.TYPE, bitmaps[c].serialize());
    }
    for (int c = 0; c < bsis.length; c++) {
      byte[] bsi = bsis[c].serialize();
      if (bsi == null) continue; // a value the layout cannot hold: no bsi index in this file
      out.computeIfAbsent(bsiColumns.get(c).field().name(), k -> new LinkedHashMap<>()).put(BitSliceIndex.TYPE, bsi);
    }
    resetBitmaps();
    for (int c = 0; c < columns.size(); c++) {
      FileIndexOptions.BloomColumn col = columns.get(c);
      long[] h = Arrays.copyOf(hashes[c], rows);
      Arrays.sort(h);
      long distinct = 0;
      for (int i = 0; i < h.length; i++) if (i == 0 || h[i] != h[i - 1]) distinct++;
      BloomFilterIndex bloom = BloomFilterIndex.sized(col.items() > 0 ? col.items() : Math.max(1, distinct), col.fpp());
      for (int i = 0; i < h.length; i++) if (i == 0 || h[i] != h[i - 1]) bloom.add(h[i]);
      out.computeIfAbsent(col.field().name(), k -> new LinkedHashMap<>()).put(BloomFilterIndex.TYPE, bloom.serialize());
    }
    rows = 0;
    return FileIndexFile.write(out);
  }
}
