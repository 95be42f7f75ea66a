package io.lagoon.core.io;

import io.lagoon.core.types.PaimonType;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The min, max and null count that Parquet's writer keeps for every column chunk, merged over a
 * file's row groups into Catalyst values. A writer reads them here instead of comparing every value
 * a second time (Paimon takes a Parquet file's stats from its footer too).
 *
 * <p>Only types whose Parquet order is the order {@link StatsCollector} keeps are taken: integers,
 * booleans, dates, microsecond timestamps (signed, as written), floating numbers ({@code
 * Double.compare}/{@code Float.compare}: NaN above all, -0.0 below 0.0) and strings (unsigned
 * bytes). Decimals, millisecond and INT96 timestamps (stored converted) and times stay with
 * per-row collection, as do nested columns.
 */
final class ParquetFooterStats {
  private ParquetFooterStats() {}

  /** Whether a top-level column of this type gets exact stats from the footer. */
  static boolean covers(PaimonType t) {
    switch (t.root()) {
      case BOOLEAN: case TINYINT: case SMALLINT: case INT: case DATE: case BIGINT: case FLOAT: case DOUBLE:
      case CHAR: case VARCHAR:
        return true;
      case TIMESTAMP: case TIMESTAMP_LTZ:
        return ParquetTimestampLayout.unitOf(t.precision()) == ParquetTimestampLayout.Unit.MICROS;
      default:
        return false;
    }
  }

  /**
   * The stats of the named top-level column, or null when the footer keeps none for it (the
   * caller then records the column's range as unknown, which only costs pruning).
   */
  static FooterStats of(ParquetMetadata footer, String column, PaimonType type) {
    Object min = null;
    Object max = null;
    long nulls = 0;
    boolean found = false;
    for (BlockMetaData block : footer.getBlocks()) {
      ColumnChunkMetaData chunk = chunk(block, column);
      if (chunk == null) return null;
      Statistics<?> s = chunk.getStatistics();
      if (s == null || s.isEmpty() || s.getNumNulls() < 0) return null;
      nulls += s.getNumNulls();
      found = true;
      if (!s.hasNonNullValue()) {
        if (s.getNumNulls() < chunk.getValueCount()) return null; // values without a range: unknown
        continue;
      }
      Object lo = catalyst(s.genericGetMin(), type);
      Object hi = catalyst(s.genericGetMax(), type);
      if (min == null || StatsCollector.compare(lo, min) < 0) min = lo;
      if (max == null || StatsCollector.compare(hi, max) > 0) max = hi;
    }
    return found ? new FooterStats(min, max, nulls) : null;
  }

  /** The chunk of a top-level column in one row group, by name. */
  private static ColumnChunkMetaData chunk(BlockMetaData block, String column) {
    for (ColumnChunkMetaData c : block.getColumns()) {
      String[] path = c.getPath().toArray();
      if (path.length == 1 && path[0].equals(column)) return c;
    }
    return null;
  }

  private static Object catalyst(Object v, PaimonType type) {
    switch (type.root()) {
      case TINYINT: return (byte) ((Integer) v).intValue();
      case SMALLINT: return (short) ((Integer) v).intValue();
      case CHAR: case VARCHAR: return UTF8String.fromBytes(((Binary) v).getBytes());
      default: return v; // Boolean, Integer (INT, DATE), Long (BIGINT, microsecond timestamps), Float, Double
    }
  }
}
