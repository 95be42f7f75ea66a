package io.lagoon.core.manifest;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.io.Serializable;
import java.util.Arrays;

/** One row of a manifest: a file added to or deleted from a (partition, bucket). */
// Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
// lists or transient state.
@DefaultSerializer(JavaSerializer.class)
public final class ManifestEntry implements Serializable {
  public final FileKind kind;
  /** Serialized partition BinaryRow. */
  public final byte[] partition;
  public final int bucket;
  public final int totalBuckets;
  public final DataFileMeta file;

  public ManifestEntry(FileKind kind, byte[] partition, int bucket, int totalBuckets, DataFileMeta file) {
    this.kind = kind;
    this.partition = partition;
    this.bucket = bucket;
    this.totalBuckets = totalBuckets;
    this.file = file;
  }

  public ManifestEntry withKind(FileKind k) {
    return new ManifestEntry(k, partition, bucket, totalBuckets, file);
  }

  public BucketId bucketId() {
    return new BucketId(partition, bucket);
  }

  /** Identifies a file within the table: partition, bucket, level and name. */
  public FileId id() {
    return new FileId(partition, bucket, file.fileName);
  }

  /** Identity of a data file across manifests. */
  public static final class FileId {
    private final byte[] partition;
    private final int bucket;
    private final String fileName;

    public FileId(byte[] partition, int bucket, String fileName) {
      this.partition = partition;
      this.bucket = bucket;
      this.fileName = fileName;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof FileId)) return false;
      FileId f = (FileId) o;
      return bucket == f.bucket && fileName.equals(f.fileName) && Arrays.equals(partition, f.partition);
    }

    @Override
    public int hashCode() {
      return fileName.hashCode() * 31 + bucket;
    }

    @Override
    public String toString() {
      return "bucket-" + bucket + "/" + fileName;
    }
  }
}
