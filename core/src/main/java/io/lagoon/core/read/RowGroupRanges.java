package io.lagoon.core.read;

import io.lagoon.core.deletionvectors.DeletionVector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * The row groups of a Parquet byte range that hold a row a deletion vector (or a file index's row
 * selection, turned into one) leaves in: a row group whose every row is left out is not read at
 * all. Spark's reader takes the row groups whose midpoint lies in the range it is given, so each
 * kept row group becomes a range of its own; row positions stay those of the file.
 */
public final class RowGroupRanges {
  private RowGroupRanges() {}

  /** The row groups to read ({@code {start, length, rows}} each) and how many were skipped. */
  public record Plan(List<long[]> read, int skipped) {
  }

  /** The plan for a range, or null when every row group of it holds a kept row (read the range as it is). */
  public static Plan kept(Configuration conf, Path path, long start, long length, DeletionVector deleted) {
    ParquetMetadata footer;
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf),
        org.apache.parquet.ParquetReadOptions.builder().withMetadataFilter(ParquetMetadataConverter.NO_FILTER).build())) {
      footer = r.getFooter();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the footer of " + path + ": " + e.getMessage(), e);
    }
    List<long[]> out = new ArrayList<>();
    int skipped = 0;
    long firstRow = 0;
    for (BlockMetaData b : footer.getBlocks()) {
      long mid = b.getStartingPos() + b.getCompressedSize() / 2;
      if (mid >= start && mid < start + length) {
        if (deleted.deletesAll(firstRow, firstRow + b.getRowCount())) skipped++;
        else out.add(new long[] {b.getStartingPos(), b.getCompressedSize(), b.getRowCount()});
      }
      firstRow += b.getRowCount();
    }
    return skipped > 0 ? new Plan(out, skipped) : null;
  }
}
