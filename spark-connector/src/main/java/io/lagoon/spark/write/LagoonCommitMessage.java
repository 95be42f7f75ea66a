package io.lagoon.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.manifest.ManifestEntry;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** The files one task wrote, carried to the driver, which commits them all at once. */
// Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
// lists or transient state.
@DefaultSerializer(JavaSerializer.class)
public final class LagoonCommitMessage implements WriterCommitMessage {
  private final List<ManifestEntry> files;

  LagoonCommitMessage(List<ManifestEntry> files) {
    this.files = List.copyOf(files);
  }

  public List<ManifestEntry> files() {
    return files;
  }
}
