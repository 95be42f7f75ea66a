package io.lagoon.spark.read;

import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.scan.DataSplit;
import io.lagoon.core.scan.ScanPlan;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.internal.SQLConf;

/**
 * How many bytes one input partition of a scan takes, the way Spark sizes its own file scans:
 * {@code spark.sql.files.maxPartitionBytes} at most, but small enough that the scan's bytes (each
 * file counted with {@code spark.sql.files.openCostInBytes} extra) spread over at least
 * {@code spark.sql.files.minPartitionNum} partitions (default: the leaf-node parallelism, that is
 * the cores), and never below the open cost. Without it a table smaller than 128 MB would be read
 * by one task while the other cores idle.
 */
final class SplitSize {
  private SplitSize() {}

  static long of(ScanPlan plan, SQLConf conf) {
    long bytes = 0;
    long files = 0;
    for (DataSplit s : plan.splits) {
      for (DataFileMeta f : s.files) {
        bytes += f.fileSize;
        files++;
      }
    }
    return of(bytes, files, conf.filesMaxPartitionBytes(), conf.filesOpenCostInBytes(), minPartitions(conf));
  }

  static long of(long bytes, long files, long maxPartitionBytes, long openCost, int minPartitions) {
    long perPartition = (bytes + files * openCost) / Math.max(1, minPartitions);
    return Math.min(maxPartitionBytes, Math.max(openCost, perPartition));
  }

  private static int minPartitions(SQLConf conf) {
    if (conf.filesMinPartitionNum().isDefined()) return (Integer) conf.filesMinPartitionNum().get();
    SparkSession spark = SparkSession.active();
    scala.Option<String> leaf = spark.conf().getOption("spark.sql.leafNodeDefaultParallelism");
    return leaf.isDefined() ? Integer.parseInt(leaf.get().trim()) : spark.sparkContext().defaultParallelism();
  }
}
