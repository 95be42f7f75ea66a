package io.lagoon.core.deletionvectors;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * Which data files of a snapshot have a deletion vector, and where it is: built on the driver
 * from the snapshot's index manifest (data file names are unique, so they key the map), shipped
 * to executors, which read the vectors they need ({@link Loader}).
 */
public final class DeletionVectorIndex implements Serializable {
  /** A data file's vector: its index file and range. */
  public static final class Ref implements Serializable {
    public final String indexFile;
    public final DeletionVectorRange range;

    public Ref(String indexFile, DeletionVectorRange range) {
      this.indexFile = indexFile;
      this.range = range;
    }

    /** {@code index-file@offset}: which vector this is, to compare at commit with what the index holds then. */
    public String key() {
      return key(indexFile, range.offset);
    }

    public static String key(String indexFile, int offset) {
      return indexFile + "@" + offset;
    }

    /** The key of a file's vector, {@code ""} for a file without one. */
    public static String keyOf(Ref ref) {
      return ref == null ? "" : ref.key();
    }
  }

  private static final DeletionVectorIndex EMPTY = new DeletionVectorIndex(Map.of());

  private final Map<String, Ref> byDataFile;

  private DeletionVectorIndex(Map<String, Ref> byDataFile) {
    this.byDataFile = byDataFile;
  }

  /** The vectors of a snapshot (none when it has no index manifest or no deletion-vector entries). */
  public static DeletionVectorIndex of(FileStoreTable table, Snapshot snapshot) throws IOException {
    if (snapshot.indexManifest == null) return EMPTY;
    Map<String, Ref> refs = new HashMap<>();
    for (IndexManifestEntry e : table.manifests().readIndexManifest(snapshot.indexManifest)) {
      if (!e.isDeletionVectors()) continue;
      for (DeletionVectorRange r : e.ranges) refs.put(r.dataFile, new Ref(e.fileName, r));
    }
    return refs.isEmpty() ? EMPTY : new DeletionVectorIndex(refs);
  }

  /**
   * The vectors a reader of the snapshot applies. A primary-key table that has vectors but whose
   * option is off is refused: its files were compacted for reading with them, not merged.
   */
  public static DeletionVectorIndex forRead(FileStoreTable table, Snapshot snapshot) throws IOException {
    DeletionVectorIndex index = of(table, snapshot);
    if (!index.isEmpty() && table.hasPrimaryKey()
        && !io.lagoon.core.mergetree.LevelZeroVisibility.hidden(table.schema())) {
      throw new UnsupportedOperationException("Primary-key table " + table.fullName() + " has deletion vectors "
          + "but option '" + io.lagoon.core.table.TableOptions.DELETION_VECTORS_ENABLED + "' is off: its files "
          + "cannot be merged without the vectors; turn the option back on");
    }
    return index;
  }

  public static DeletionVectorIndex empty() {
    return EMPTY;
  }

  public boolean isEmpty() {
    return byDataFile.isEmpty();
  }

  public int size() {
    return byDataFile.size();
  }

  /** The data file's vector, or null when none of its rows is deleted. */
  public Ref refOf(String dataFile) {
    return byDataFile.get(dataFile);
  }

  /**
   * Reads vectors on an executor, each index file once (an index file holds the vectors of a
   * whole bucket). Not thread-safe: one per task.
   */
  public static final class Loader {
    private final FileIO io;
    private final Path indexDir;
    private final String tableName;
    private final Map<String, byte[]> files = new HashMap<>();

    public Loader(FileIO io, Path tableDir, String tableName) {
      this.io = io;
      this.indexDir = DataFilePaths.indexDir(tableDir);
      this.tableName = tableName;
    }

    public DeletionVector load(Ref ref) {
      byte[] bytes = files.get(ref.indexFile);
      if (bytes == null) {
        bytes = readFile(ref);
        files.put(ref.indexFile, bytes);
      }
      return DeletionVectorFile.read(bytes, ref.range, new Path(indexDir, ref.indexFile).toString());
    }

    private byte[] readFile(Ref ref) {
      Path p = new Path(indexDir, ref.indexFile);
      try (InputStream in = io.fs(p).open(p)) {
        return in.readAllBytes();
      } catch (FileNotFoundException e) {
        throw new IllegalStateException("Deletion-vector index file " + p + " of table " + tableName
            + " is missing; it holds the deleted rows of data file " + ref.range.dataFile, e);
      } catch (IOException e) {
        throw new IllegalStateException("Cannot read deletion-vector index file " + p + " of table " + tableName
            + ": " + e.getMessage(), e);
      }
    }
  }
}
