package io.lagoon.core.compaction;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.lagoon.core.deletionvectors.BucketVectorChange;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.operation.RewriteFiles;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one compaction task replaced and wrote. On a primary-key table with deletion vectors, the
 * bucket's vector change (checked and applied at commit); on an append table with vectors, the
 * vector each replaced file had when it was read (a file whose rows were deleted since is a
 * conflict: its rewrite would bring them back).
 */
// Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
// lists or transient state.
@DefaultSerializer(JavaSerializer.class)
public record CompactionResult(List<ManifestEntry> before, List<ManifestEntry> after, BucketVectorChange vectorChange,
                               Map<String, String> appendVectorsRead) implements Serializable {
  /** Adds this result to the one rewrite the driver commits. */
  public void addTo(RewriteFiles rewrite) {
    rewrite.replace(before, after);
    if (vectorChange != null) rewrite.vectors(List.of(vectorChange));
    if (appendVectorsRead != null && !appendVectorsRead.isEmpty()) rewrite.dropAppendVectors(appendVectorsRead);
  }

  public long bytesBefore() {
    long n = 0;
    for (ManifestEntry e : before) n += e.file.fileSize;
    return n;
  }

  public long bytesAfter() {
    long n = 0;
    for (ManifestEntry e : after) n += e.file.fileSize;
    return n;
  }
}
