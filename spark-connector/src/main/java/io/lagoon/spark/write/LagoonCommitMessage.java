package io.lagoon.spark.write;

import io.lagoon.core.manifest.ManifestEntry;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** The files one task wrote, carried to the driver, which commits them all at once. */
public final class LagoonCommitMessage implements WriterCommitMessage {
  private final List<ManifestEntry> files;

  LagoonCommitMessage(List<ManifestEntry> files) {
    this.files = List.copyOf(files);
  }

  public List<ManifestEntry> files() {
    return files;
  }
}
