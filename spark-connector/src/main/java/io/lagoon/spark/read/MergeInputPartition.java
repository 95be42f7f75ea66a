package io.lagoon.spark.read;

import io.lagoon.core.mergetree.Section;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.HasPartitionKey;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A unit of work for one task that needs a merge: sections of one bucket, each read whole (a
 * section's files hold every record of its keys, so it is never split across tasks).
 */
public final class MergeInputPartition implements InputPartition, HasPartitionKey {
  private final String bucketDir;
  private final List<Section> sections;
  /** Its (partition, bucket) when the scan reports its layout ({@link StoragePartitioning}); else null. */
  private final InternalRow key;

  public MergeInputPartition(String bucketDir, List<Section> sections) {
    this(bucketDir, sections, null);
  }

  MergeInputPartition(String bucketDir, List<Section> sections, InternalRow key) {
    this.bucketDir = bucketDir;
    this.sections = List.copyOf(sections);
    this.key = key;
  }

  @Override
  public InternalRow partitionKey() {
    return key;
  }

  public String bucketDir() {
    return bucketDir;
  }

  public List<Section> sections() {
    return sections;
  }
}
