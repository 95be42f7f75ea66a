package io.lagoon.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.write.KeyValueWriteResult;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** What one task wrote into a primary-key table: new level-0 files and any compaction it did. */
// Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
// lists or transient state.
@DefaultSerializer(JavaSerializer.class)
final class PkCommitMessage implements WriterCommitMessage {
  private final KeyValueWriteResult result;

  PkCommitMessage(KeyValueWriteResult result) {
    this.result = result;
  }

  KeyValueWriteResult result() {
    return result;
  }

  /** The files this task created ({@link KeyValueWriteResult#createdFiles}). */
  List<ManifestEntry> createdFiles() {
    return result.createdFiles();
  }
}
