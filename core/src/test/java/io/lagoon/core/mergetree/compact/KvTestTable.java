package io.lagoon.core.mergetree.compact;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueFileWriter;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.SortedRunMerger;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * A primary-key table in a temp folder with columns {@code p INT} (partition, optional),
 * {@code id INT} (key) and {@code v BIGINT}; writes real key-value files and registers their
 * records with a {@link MemorySource}.
 */
final class KvTestTable {
  static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  static final PaimonType BIGINT = PaimonType.of(TypeRoot.BIGINT);

  final FileStoreTable table;
  final boolean partitioned;
  final MemorySource source = new MemorySource();
  final KeyValueLayout layout;

  KvTestTable(java.nio.file.Path tmp, boolean partitioned, Map<String, String> options) throws IOException {
    this.partitioned = partitioned;
    List<DataField> fields = partitioned
        ? List.of(new DataField(0, "p", INT.notNull()), new DataField(1, "id", INT.notNull()), new DataField(2, "v", BIGINT))
        : List.of(new DataField(0, "id", INT.notNull()), new DataField(1, "v", BIGINT));
    Map<String, String> opts = new HashMap<>(options);
    opts.putIfAbsent("bucket", "1");
    TableSchema schema = new TableSchema(0, fields, fields.size() - 1, partitioned ? List.of("p") : List.of(),
        partitioned ? List.of("p", "id") : List.of("id"), opts, null, System.currentTimeMillis());
    FileIO io = new FileIO(new Configuration());
    Path dir = new Path(tmp.resolve("t").toUri());
    if (!new SchemaManager(io, dir).tryCommit(schema)) throw new IllegalStateException("schema exists");
    this.table = new FileStoreTable(io, dir, "db.t", schema);
    this.layout = new KeyValueLayout(schema);
  }

  byte[] partition(int p) {
    return partitioned ? BinaryRows.serialize(new GenericInternalRow(new Object[] {p}), List.of(INT))
        : BinaryRows.serialize(new GenericInternalRow(0), List.of());
  }

  Path bucketDir(byte[] partition) {
    return table.paths().bucketDir(partition, 0);
  }

  /** A record of partition p; a null v with a retract kind is a plain delete. */
  KeyValue kv(int p, int id, long seq, byte kind, Long v) {
    Object[] value = partitioned ? new Object[] {p, id, v} : new Object[] {id, v};
    return new KeyValue(new GenericInternalRow(new Object[] {id}), seq, kind, new GenericInternalRow(value));
  }

  /** Writes records (ascending, unique ids) as one file on a level and registers them. */
  DataFileMeta write(int p, int level, List<KeyValue> records) throws IOException {
    KeyValueFileWriter w = new KeyValueFileWriter(table, bucketDir(partition(p)), level);
    for (KeyValue kv : records) w.write(kv);
    DataFileMeta meta = w.finish();
    source.put(meta.fileName, records);
    return meta;
  }

  ManifestEntry entry(int p, DataFileMeta f) {
    return new ManifestEntry(FileKind.ADD, partition(p), 0, 1, f);
  }

  void append(int p, DataFileMeta... files) throws IOException {
    List<ManifestEntry> entries = new ArrayList<>();
    for (DataFileMeta f : files) entries.add(entry(p, f));
    table.newAppend().add(entries).commit();
  }

  Collection<ManifestEntry> live() throws IOException {
    return LiveFiles.read(table.manifests(), table.snapshots().latest().orElseThrow());
  }

  /** Reads an output file back from disk and registers its records, so later merges can use it. */
  List<KeyValue> readBack(int p, DataFileMeta f) throws IOException {
    List<KeyValue> records = ParquetKeyValues.read(new Path(bucketDir(partition(p)), f.fileName), layout);
    source.put(f.fileName, records);
    return records;
  }

  /** What a reader of the whole bucket sees: "id=v" per live key, in key order. */
  List<String> visible(List<List<KeyValue>> runs) {
    List<Iterator<KeyValue>> its = new ArrayList<>();
    for (List<KeyValue> r : runs) its.add(r.iterator());
    TableSchema s = table.schema();
    SortedRunMerger m = new SortedRunMerger(its, new KeyComparator(layout.keyTypes()),
        MergeFunctions.recordOrder(s.options(), s.fields()), MergeFunctions.create(s.options(), s.fields(), s.primaryKeys()));
    List<String> out = new ArrayList<>();
    int vPos = partitioned ? 2 : 1;
    while (m.hasNext()) {
      InternalRow v = m.next().value();
      out.add(v.getInt(vPos - 1) + "=" + (v.isNullAt(vPos) ? "null" : v.getLong(vPos)));
    }
    return out;
  }

  /** The merged view of files, each file a run of the records registered for it. */
  List<String> visibleFiles(Collection<DataFileMeta> files) {
    List<List<KeyValue>> runs = new ArrayList<>();
    for (DataFileMeta f : files) runs.add(source.records(f.fileName));
    return visible(runs);
  }

  /** Records of ids with kinds: "1+10" is id 1 inserted with v 10, "2-" id 2 deleted. */
  List<KeyValue> records(int p, long firstSeq, String... specs) {
    TreeMap<Integer, KeyValue> sorted = new TreeMap<>();
    long seq = firstSeq;
    for (String s : specs) {
      int sign = s.indexOf('+') >= 0 ? s.indexOf('+') : s.indexOf('-');
      int id = Integer.parseInt(s.substring(0, sign));
      boolean add = s.charAt(sign) == '+';
      Long v = s.length() > sign + 1 ? Long.parseLong(s.substring(sign + 1)) : null;
      sorted.put(id, kv(p, id, seq++, add ? KeyValue.INSERT : KeyValue.DELETE, v));
    }
    return new ArrayList<>(sorted.values());
  }
}
