package io.lagoon.core.table;

import io.lagoon.core.commit.FileStoreCommit;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.operation.AppendFiles;
import io.lagoon.core.operation.OverwriteFiles;
import io.lagoon.core.operation.RewriteFiles;
import io.lagoon.core.operation.RowDelta;
import io.lagoon.core.schema.SchemaManager;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.SnapshotManager;
import io.lagoon.core.snapshot.TagManager;
import io.lagoon.core.snapshot.TimeTravel;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A table on storage as of one schema: its folder, schema, options and the managers for its
 * snapshots and manifests. Immutable; reload to see a newer schema.
 */
public final class FileStoreTable implements Serializable {
  /** The branch every table has; its snapshots, schemas and tags are in the table's own folder. */
  public static final String MAIN = "main";
  private static final String BRANCH_INFIX = "$branch_";

  private final FileIO io;
  private final Path dir;
  private final String fullName;
  private final TableSchema schema;
  private final String branch;
  /** Who commits through this table and which commit it is (a streaming batch); null: a fresh one per commit. */
  private io.lagoon.core.commit.CommitIdentity commitIdentity;
  private final transient Map<Long, TableSchema> schemaCache = new ConcurrentHashMap<>();

  public FileStoreTable(FileIO io, Path dir, String fullName, TableSchema schema) {
    this(io, dir, fullName, schema, MAIN);
  }

  private FileStoreTable(FileIO io, Path dir, String fullName, TableSchema schema, String branch) {
    this.io = io;
    this.dir = dir;
    this.fullName = fullName;
    this.schema = schema;
    this.branch = branch;
  }

  /** The same table with other options for this run only (nothing is written). */
  public FileStoreTable withOptions(Map<String, String> options) {
    TableSchema s = schema;
    return withSchema(new TableSchema(s.id(), s.fields(), s.highestFieldId(), s.partitionKeys(), s.primaryKeys(), options,
        s.comment(), s.timeMillis()));
  }

  /** The same table (and branch) with another schema. */
  public FileStoreTable withSchema(TableSchema next) {
    FileStoreTable t = new FileStoreTable(io, dir, fullName, next, branch);
    t.commitIdentity = commitIdentity;
    return t;
  }

  /** The same table, whose commits carry this identity and skip new data it committed already. */
  public FileStoreTable withCommitIdentity(io.lagoon.core.commit.CommitIdentity identity) {
    FileStoreTable t = new FileStoreTable(io, dir, fullName, schema, branch);
    t.commitIdentity = identity;
    return t;
  }

  /** Null unless {@link #withCommitIdentity} set one. */
  public io.lagoon.core.commit.CommitIdentity commitIdentity() {
    return commitIdentity;
  }

  /**
   * A branch of the table at {@code dir} ({@code db.t$branch_<name>}): its own snapshots, schemas
   * and tags under {@code branch/branch-<name>/}, data, manifests and index files shared with the
   * table. Fails when the branch has no schema (it does not exist).
   */
  public static FileStoreTable loadBranch(FileIO io, Path dir, String tableName, String branch) throws IOException {
    if (MAIN.equals(branch)) return load(io, dir, tableName);
    TableSchema s = new SchemaManager(io, branchDir(dir, branch)).latest()
        .orElseThrow(() -> new IOException("Table " + tableName + " has no branch '" + branch + "'"));
    return new FileStoreTable(io, dir, tableName + BRANCH_INFIX + branch, s, branch);
  }

  /** The folder of a branch's metadata, {@code <table>/branch/branch-<name>}. */
  public static Path branchDir(Path tableDir, String branch) {
    return new Path(new Path(tableDir, "branch"), "branch-" + branch);
  }

  /** {@code [table, branch]} of a name such as {@code t$branch_dev}; null when it names no branch. */
  public static String[] splitBranch(String tableName) {
    int i = tableName.indexOf(BRANCH_INFIX);
    if (i <= 0 || i + BRANCH_INFIX.length() == tableName.length()) return null;
    return new String[] {tableName.substring(0, i), tableName.substring(i + BRANCH_INFIX.length())};
  }

  public String branch() { return branch; }

  /** Loads the latest schema of the table at {@code dir}; fails if no schema file is there. */
  public static FileStoreTable load(FileIO io, Path dir, String fullName) throws IOException {
    TableSchema s = new SchemaManager(io, dir).latest()
        .orElseThrow(() -> new IOException("Table " + fullName + " has no schema at " + dir));
    return new FileStoreTable(io, dir, fullName, s);
  }

  public FileIO io() { return io; }
  /** The table's folder: data files, manifests and index files live under it, for every branch. */
  public Path dir() { return dir; }
  /** The folder holding this table's {@code snapshot/}, {@code schema/} and {@code tag/} (the table's own, for the main branch). */
  public Path metadataDir() { return MAIN.equals(branch) ? dir : branchDir(dir, branch); }
  public String fullName() { return fullName; }
  public TableSchema schema() { return schema; }
  public TableOptions options() { return new TableOptions(schema.options()); }
  public boolean hasPrimaryKey() { return !schema.primaryKeys().isEmpty(); }

  public SnapshotManager snapshots() { return new SnapshotManager(io, metadataDir()); }
  public TagManager tags() { return new TagManager(io, metadataDir()); }
  public TimeTravel timeTravel() {
    return new TimeTravel(fullName, snapshots(), tags());
  }

  /** This table as of a snapshot: with the schema that snapshot was committed with. */
  public FileStoreTable asOf(Snapshot snapshot) throws IOException {
    return snapshot.schemaId == schema.id() ? this : withSchema(schema(snapshot.schemaId));
  }
  public SchemaManager schemas() { return new SchemaManager(io, metadataDir()); }
  public ManifestFiles manifests() { return new ManifestFiles(io, dir); }

  /** The schema a data file was written with (files keep their schema id across evolution). */
  public TableSchema schema(long id) throws IOException {
    if (id == schema.id()) return schema;
    Map<Long, TableSchema> cache = schemaCache == null ? new ConcurrentHashMap<>() : schemaCache;
    TableSchema s = cache.get(id);
    if (s == null) {
      s = schemas().schema(id);
      cache.put(id, s);
    }
    return s;
  }

  /** The committer every change of this table goes through. */
  public FileStoreCommit committer() {
    return new FileStoreCommit(this);
  }

  /** Adds new data files. */
  public AppendFiles newAppend() {
    return new AppendFiles(this);
  }

  /** Replaces every live file of the partitions {@code partitions} selects (tested on partition rows). */
  public OverwriteFiles newOverwrite(Predicate<InternalRow> partitions) {
    return new OverwriteFiles(this, partitions);
  }

  /** Replaces some live files by others with the same rows (compaction, sorting). */
  public RewriteFiles newRewrite() {
    return new RewriteFiles(this);
  }

  /** A row-level change: new files, rows deleted by position, files replaced whole. */
  public RowDelta newRowDelta() {
    return new RowDelta(this);
  }

  /** Where the table's data and index files are, and what new ones are called. */
  public DataFilePaths paths() {
    return new DataFilePaths(dir, schema);
  }
}
