package io.lagoon.spark.read;

import io.lagoon.core.mergetree.Section;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A unit of work for one task that needs a merge: sections of one bucket, each read whole (a
 * section's files hold every record of its keys, so it is never split across tasks).
 */
public final class MergeInputPartition implements InputPartition {
  private final String bucketDir;
  private final List<Section> sections;

  public MergeInputPartition(String bucketDir, List<Section> sections) {
    this.bucketDir = bucketDir;
    this.sections = List.copyOf(sections);
  }

  public String bucketDir() {
    return bucketDir;
  }

  public List<Section> sections() {
    return sections;
  }
}
