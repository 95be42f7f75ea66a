package io.lagoon.core.table;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Where a table's files live and what new ones are called, in one place: bucket folders
 * {@code <table>/<k=v/...>bucket-N} rebuilt from the partition row (never parsed from listings),
 * data files {@code data-<uuid>-<n>.<format>} inside them, and deletion-vector and other index
 * files {@code index/index-<uuid>-<n>}.
 */
public final class DataFilePaths implements Serializable {
  private final Path tableDir;
  private final List<DataField> partitionFields;
  private final List<PaimonType> partitionTypes = new ArrayList<>();
  private final String defaultPartitionName;

  public DataFilePaths(Path tableDir, TableSchema schema) {
    this.tableDir = tableDir;
    this.partitionFields = schema.partitionFields();
    for (DataField f : partitionFields) partitionTypes.add(f.type());
    this.defaultPartitionName = new TableOptions(schema.options()).partitionDefaultName();
  }

  /** The partition folder, {@code k=v/.../} ({@code ""} for an unpartitioned table). */
  public String partitionPath(byte[] partition) {
    if (partitionFields.isEmpty()) return "";
    return PartitionPaths.path(partitionFields, BinaryRows.deserialize(partition, partitionTypes), defaultPartitionName);
  }

  /** The partition folder of a partition row (partition columns in order). */
  public String partitionPath(InternalRow partition) {
    return partitionFields.isEmpty() ? "" : PartitionPaths.path(partitionFields, partition, defaultPartitionName);
  }

  /** Bucket number of rows waiting for a bucket on postponed-bucket tables ({@code 'bucket'='-2'}). */
  public static final int POSTPONE_BUCKET = -2;

  /** A bucket's folder relative to the table, {@code k=v/.../bucket-N} ({@code bucket-postpone} for -2). */
  public String bucketPath(byte[] partition, int bucket) {
    return partitionPath(partition) + bucketFolder(bucket);
  }

  private static String bucketFolder(int bucket) {
    return bucket == POSTPONE_BUCKET ? "bucket-postpone" : "bucket-" + bucket;
  }

  public Path bucketDir(byte[] partition, int bucket) {
    return new Path(tableDir, bucketPath(partition, bucket));
  }

  public Path bucketDir(InternalRow partition, int bucket) {
    return new Path(tableDir, partitionPath(partition) + bucketFolder(bucket));
  }

  /** The data file of a manifest entry. */
  public Path dataFile(ManifestEntry e) {
    return new Path(bucketDir(e.partition, e.bucket), e.file.fileName);
  }

  public Path indexDir() {
    return indexDir(tableDir);
  }

  /** A table's {@code index/} folder (for code that holds only the table folder, on executors). */
  public static Path indexDir(Path tableDir) {
    return new Path(tableDir, "index");
  }

  public Path indexFile(String name) {
    return new Path(indexDir(), name);
  }

  /** Names of new data files: one writer, one uuid, a counter, as Paimon names them. */
  public static final class DataFileNames implements Serializable {
    private final String uuid = UUID.randomUUID().toString();
    private int counter;

    public String next(String format) {
      return next("data-", format);
    }

    /** A name with another prefix (Paimon's {@code changelog-file.prefix} for changelog files). */
    public String next(String prefix, String format) {
      return prefix + uuid + "-" + (counter++) + "." + format;
    }
  }

  /** A fresh index file name, in Paimon's {@code index-<uuid>-<n>} form. */
  public static String newIndexFileName() {
    return "index-" + UUID.randomUUID() + "-0";
  }
}
