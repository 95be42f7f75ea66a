package io.lagoon.core.manifest;

import io.lagoon.core.fs.FileIO;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;

/**
 * Reads and writes manifests and manifest lists ({@code manifest/manifest-*},
 * {@code manifest/manifest-list-*}): Avro container files, zstd-compressed as Paimon writes them.
 */
public final class ManifestFiles {
  private static final int MANIFEST_VERSION = 2;
  private static final int MANIFEST_LIST_VERSION = 2;
  private static final int INDEX_MANIFEST_VERSION = 1;

  private final FileIO io;
  private final Path manifestDir;
  private final String writerId = UUID.randomUUID().toString();
  private int counter;

  public ManifestFiles(FileIO io, Path tableDir) {
    this.io = io;
    this.manifestDir = new Path(tableDir, "manifest");
  }

  public Path path(String fileName) {
    return new Path(manifestDir, plainName(fileName, "manifest"));
  }

  /**
   * Metadata names files by bare name inside a folder of the table (Paimon never writes a path
   * there), so a name that would leave that folder is corrupt metadata, refused before any path
   * is built from it.
   */
  static String plainName(String name, String what) {
    if (name == null || name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
        || name.indexOf('\\') >= 0 || name.indexOf(':') >= 0) {
      throw new IllegalStateException("Corrupt table metadata: " + what + " file name '" + name
          + "' is not a plain file name inside the table's folders");
    }
    return name;
  }

  private synchronized String newName(String prefix) {
    return prefix + writerId + "-" + (counter++);
  }

  // ---- manifests ----

  public List<ManifestEntry> readManifest(String fileName) throws IOException {
    List<ManifestEntry> out = new ArrayList<>();
    for (GenericRecord r : readAll(path(fileName))) out.add(toEntry(r, fileName));
    return out;
  }

  /**
   * The entries of a manifest a manifest list names, from the JVM's {@link ManifestCache} when it
   * was read before; an unmodifiable list.
   */
  public List<ManifestEntry> readManifest(ManifestFileMeta manifest) throws IOException {
    String key = ManifestCache.key(path(manifest.fileName).toString(), manifest.fileSize);
    List<ManifestEntry> cached = ManifestCache.get(key);
    if (cached != null) return cached;
    List<ManifestEntry> entries = Collections.unmodifiableList(readManifest(manifest.fileName));
    ManifestCache.put(key, entries);
    return entries;
  }

  /** Writes entries into a new manifest and returns its list row (with partition stats). */
  public ManifestFileMeta writeManifest(List<ManifestEntry> entries, PartitionStatsCollector partitionStats,
                                        long schemaId) throws IOException {
    String name = newName("manifest-");
    List<GenericRecord> rows = new ArrayList<>();
    long added = 0;
    long deleted = 0;
    for (ManifestEntry e : entries) {
      rows.add(fromEntry(e));
      if (e.kind == FileKind.ADD) added++; else deleted++;
      partitionStats.add(e.partition);
    }
    long size = writeAll(path(name), AvroSchemas.MANIFEST, rows);
    return new ManifestFileMeta(name, size, added, deleted, partitionStats.result(), schemaId);
  }

  // ---- manifest lists ----

  public List<ManifestFileMeta> readManifestList(String fileName) throws IOException {
    List<ManifestFileMeta> out = new ArrayList<>();
    for (GenericRecord r : readAll(path(fileName))) {
      out.add(new ManifestFileMeta(
          AvroRecords.getString(r, "_FILE_NAME"),
          AvroRecords.getLong(r, "_FILE_SIZE"),
          AvroRecords.getLong(r, "_NUM_ADDED_FILES"),
          AvroRecords.getLong(r, "_NUM_DELETED_FILES"),
          AvroRecords.readStats(r, "_PARTITION_STATS"),
          AvroRecords.getLong(r, "_SCHEMA_ID")));
    }
    return out;
  }

  /** Writes a manifest list; returns {name, size}. */
  public String[] writeManifestList(List<ManifestFileMeta> metas) throws IOException {
    String name = newName("manifest-list-");
    Schema statsSchema = AvroSchemas.statsSchema(AvroSchemas.MANIFEST_LIST, "_PARTITION_STATS");
    List<GenericRecord> rows = new ArrayList<>();
    for (ManifestFileMeta m : metas) {
      GenericRecord r = new GenericData.Record(AvroSchemas.MANIFEST_LIST);
      r.put("_VERSION", MANIFEST_LIST_VERSION);
      r.put("_FILE_NAME", m.fileName);
      r.put("_FILE_SIZE", m.fileSize);
      r.put("_NUM_ADDED_FILES", m.numAddedFiles);
      r.put("_NUM_DELETED_FILES", m.numDeletedFiles);
      r.put("_PARTITION_STATS", AvroRecords.writeStats(statsSchema, m.partitionStats));
      r.put("_SCHEMA_ID", m.schemaId);
      rows.add(r);
    }
    long size = writeAll(path(name), AvroSchemas.MANIFEST_LIST, rows);
    return new String[] {name, Long.toString(size)};
  }

  // ---- record mapping ----

  private static ManifestEntry toEntry(GenericRecord r, String manifest) {
    Integer version = AvroRecords.getIntOrNull(r, "_VERSION");
    if (version != null && version != MANIFEST_VERSION) {
      throw new IllegalStateException("Manifest " + manifest + " has unsupported entry version " + version);
    }
    GenericRecord f = (GenericRecord) AvroRecords.get(r, "_FILE");
    DataFileMeta file = new DataFileMeta(
        plainName(AvroRecords.getString(f, "_FILE_NAME"), "data"),
        AvroRecords.getLong(f, "_FILE_SIZE"),
        AvroRecords.getLong(f, "_ROW_COUNT"),
        AvroRecords.getBytes(f, "_MIN_KEY"),
        AvroRecords.getBytes(f, "_MAX_KEY"),
        AvroRecords.readStats(f, "_KEY_STATS"),
        AvroRecords.readStats(f, "_VALUE_STATS"),
        AvroRecords.getLong(f, "_MIN_SEQUENCE_NUMBER"),
        AvroRecords.getLong(f, "_MAX_SEQUENCE_NUMBER"),
        AvroRecords.getLong(f, "_SCHEMA_ID"),
        AvroRecords.getIntOrNull(f, "_LEVEL"),
        AvroRecords.getStrings(f, "_EXTRA_FILES"),
        AvroRecords.getLongOrNull(f, "_CREATION_TIME"),
        AvroRecords.getLongOrNull(f, "_DELETE_ROW_COUNT"),
        AvroRecords.getBytes(f, "_EMBEDDED_FILE_INDEX"),
        AvroRecords.getIntOrNull(f, "_FILE_SOURCE"),
        AvroRecords.getStrings(f, "_VALUE_STATS_COLS"),
        AvroRecords.getString(f, "_EXTERNAL_PATH"));
    return new ManifestEntry(
        FileKind.of(AvroRecords.getIntOrNull(r, "_KIND")),
        AvroRecords.getBytes(r, "_PARTITION"),
        AvroRecords.getIntOrNull(r, "_BUCKET"),
        AvroRecords.getIntOrNull(r, "_TOTAL_BUCKETS"),
        file);
  }

  private static GenericRecord fromEntry(ManifestEntry e) {
    Schema fileSchema = AvroSchemas.MANIFEST.getField("_FILE").schema();
    DataFileMeta m = e.file;
    GenericRecord f = new GenericData.Record(fileSchema);
    f.put("_FILE_NAME", m.fileName);
    f.put("_FILE_SIZE", m.fileSize);
    f.put("_ROW_COUNT", m.rowCount);
    f.put("_MIN_KEY", ByteBuffer.wrap(m.minKey));
    f.put("_MAX_KEY", ByteBuffer.wrap(m.maxKey));
    f.put("_KEY_STATS", AvroRecords.writeStats(fileSchema.getField("_KEY_STATS").schema(), m.keyStats));
    f.put("_VALUE_STATS", AvroRecords.writeStats(fileSchema.getField("_VALUE_STATS").schema(), m.valueStats));
    f.put("_MIN_SEQUENCE_NUMBER", m.minSequenceNumber);
    f.put("_MAX_SEQUENCE_NUMBER", m.maxSequenceNumber);
    f.put("_SCHEMA_ID", m.schemaId);
    f.put("_LEVEL", m.level);
    f.put("_EXTRA_FILES", new ArrayList<>(m.extraFiles));
    f.put("_CREATION_TIME", m.creationTimeMillis);
    f.put("_DELETE_ROW_COUNT", m.deleteRowCount);
    f.put("_EMBEDDED_FILE_INDEX", m.embeddedIndex == null ? null : ByteBuffer.wrap(m.embeddedIndex));
    f.put("_FILE_SOURCE", m.fileSource);
    // Files Lagoon writes have full stats and no external path (both null); a file Paimon 1.x wrote
    // keeps its dense-stats column list and location when its entry is rewritten.
    f.put("_VALUE_STATS_COLS", m.valueStatsCols == null ? null : new ArrayList<>(m.valueStatsCols));
    f.put("_EXTERNAL_PATH", m.externalPath);
    GenericRecord r = new GenericData.Record(AvroSchemas.MANIFEST);
    r.put("_VERSION", MANIFEST_VERSION);
    r.put("_KIND", e.kind.code());
    r.put("_PARTITION", ByteBuffer.wrap(e.partition));
    r.put("_BUCKET", e.bucket);
    r.put("_TOTAL_BUCKETS", e.totalBuckets);
    r.put("_FILE", f);
    return r;
  }

  // ---- index manifests ----

  /**
   * The entries of an index manifest (a snapshot's {@code indexManifest}), with ADD and DELETE
   * rows of one file resolved: what remains are the snapshot's index files.
   */
  public List<IndexManifestEntry> readIndexManifest(String fileName) throws IOException {
    java.util.Map<String, IndexManifestEntry> live = new java.util.LinkedHashMap<>();
    for (GenericRecord r : readAll(path(fileName))) {
      IndexManifestEntry e = toIndexEntry(r);
      if (e.kind == FileKind.ADD) live.put(e.fileName, e);
      else live.remove(e.fileName);
    }
    return new ArrayList<>(live.values());
  }

  /** Writes a new index manifest listing {@code entries} (the snapshot's index files, all ADD). */
  public String writeIndexManifest(List<IndexManifestEntry> entries) throws IOException {
    String name = newName("index-manifest-");
    Schema rangesSchema = AvroSchemas.INDEX_MANIFEST.getField("_DELETIONS_VECTORS_RANGES").schema().getTypes().get(1);
    Schema rangeSchema = rangesSchema.getElementType().getTypes().get(1);
    List<GenericRecord> rows = new ArrayList<>();
    for (IndexManifestEntry e : entries) {
      GenericRecord r = new GenericData.Record(AvroSchemas.INDEX_MANIFEST);
      r.put("_VERSION", INDEX_MANIFEST_VERSION);
      r.put("_KIND", (int) e.kind.code());
      r.put("_PARTITION", ByteBuffer.wrap(e.partition));
      r.put("_BUCKET", e.bucket);
      r.put("_INDEX_TYPE", e.indexType);
      r.put("_FILE_NAME", e.fileName);
      r.put("_FILE_SIZE", e.fileSize);
      r.put("_ROW_COUNT", e.rowCount);
      if (e.isDeletionVectors()) {
        List<GenericRecord> ranges = new ArrayList<>();
        for (io.lagoon.core.deletionvectors.DeletionVectorRange d : e.ranges) {
          GenericRecord g = new GenericData.Record(rangeSchema);
          g.put("f0", d.dataFile);
          g.put("f1", d.offset);
          g.put("f2", d.length);
          g.put("_CARDINALITY", d.cardinality);
          ranges.add(g);
        }
        r.put("_DELETIONS_VECTORS_RANGES", ranges);
      }
      rows.add(r);
    }
    writeAll(path(name), AvroSchemas.INDEX_MANIFEST, rows);
    return name;
  }

  private static IndexManifestEntry toIndexEntry(GenericRecord r) {
    List<io.lagoon.core.deletionvectors.DeletionVectorRange> ranges = new ArrayList<>();
    Object rs = AvroRecords.get(r, "_DELETIONS_VECTORS_RANGES");
    if (rs instanceof java.util.Collection) {
      for (Object o : (java.util.Collection<?>) rs) {
        GenericRecord g = (GenericRecord) o;
        Integer offset = AvroRecords.getIntOrNull(g, "f1");
        Integer length = AvroRecords.getIntOrNull(g, "f2");
        if (offset == null || length == null) {
          throw new IllegalStateException("Index manifest row of " + AvroRecords.getString(r, "_FILE_NAME")
              + " has a deletion-vector range without offset or length");
        }
        ranges.add(new io.lagoon.core.deletionvectors.DeletionVectorRange(AvroRecords.getString(g, "f0"), offset,
            length, AvroRecords.getLongOrNull(g, "_CARDINALITY")));
      }
    }
    Integer bucket = AvroRecords.getIntOrNull(r, "_BUCKET");
    return new IndexManifestEntry(FileKind.of(AvroRecords.getIntOrNull(r, "_KIND")), AvroRecords.getBytes(r, "_PARTITION"),
        bucket == null ? 0 : bucket, AvroRecords.getString(r, "_INDEX_TYPE"),
        plainName(AvroRecords.getString(r, "_FILE_NAME"), "index"),
        AvroRecords.getLong(r, "_FILE_SIZE"), AvroRecords.getLong(r, "_ROW_COUNT"), ranges);
  }

  // ---- Avro container I/O ----

  private List<GenericRecord> readAll(Path p) throws IOException {
    List<GenericRecord> out = new ArrayList<>();
    try (InputStream in = io.fs(p).open(p);
         DataFileStream<GenericRecord> s = new DataFileStream<>(in, new GenericDatumReader<>())) {
      while (s.hasNext()) out.add(s.next());
    } catch (java.io.FileNotFoundException e) {
      java.io.FileNotFoundException missing = new java.io.FileNotFoundException("Metadata file is missing: " + p);
      missing.initCause(e);
      throw missing;
    } catch (IOException | RuntimeException e) {
      throw new IOException("Cannot read metadata file " + p + ": " + e.getMessage(), e);
    }
    return out;
  }

  private long writeAll(Path p, Schema schema, List<GenericRecord> rows) throws IOException {
    try (OutputStream out = io.create(p, false);
         DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
      w.setCodec(CodecFactory.zstandardCodec(1));
      w.create(schema, out);
      for (GenericRecord r : rows) w.append(r);
    }
    return io.status(p).getLen();
  }
}
