package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.dynamicbucket.HashIndexFile;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HASH index files of a dynamic-bucket table Paimon 0.9 wrote (fixture {@code pk_part}, key
 * {@code (id, d)}, partitioned by {@code d}): each holds, as big-endian int32s, the hash of the key
 * without the partition column of every key its bucket ever held, as many as its index manifest
 * entry counts; Lagoon writes the same bytes back.
 */
class HashIndexFixtureTest {
  private static final PaimonType INT = PaimonType.of(TypeRoot.INT);
  private static final PaimonType DATE = PaimonType.of(TypeRoot.DATE);

  @TempDir java.nio.file.Path tmp;

  private static int keyHash(int id) {
    return BinaryRows.hash(new GenericInternalRow(new Object[] {id}), List.of(INT));
  }

  @Test
  void paimonsHashIndexHoldsTheKeyHashesOfEachBucket() throws Exception {
    URL url = getClass().getClassLoader().getResource("fixtures/paimon-0.9-warehouse/db.db/pk_part");
    FileIO io = new FileIO(new Configuration());
    FileStoreTable table = FileStoreTable.load(io, new Path(url.toURI()), "db.pk_part");
    Snapshot latest = table.snapshots().latest().orElseThrow();
    // Live keys by partition (epoch day), from the fixture's expected rows.
    Map<Integer, Set<Integer>> live = Map.of(19723, Set.of(1, 2, 3, 4), 19724, Set.of(1, 3, 4));
    int hashFiles = 0;
    for (IndexManifestEntry e : table.manifests().readIndexManifest(latest.indexManifest)) {
      if (!e.indexType.equals(HashIndexFile.INDEX_TYPE)) continue;
      hashFiles++;
      int[] hashes = HashIndexFile.read(io, table.paths().indexFile(e.fileName));
      assertEquals(e.rowCount, hashes.length, e.fileName + ": the entry counts its hashes");
      int day = BinaryRows.deserialize(e.partition, List.of(DATE)).getInt(0);
      Set<Integer> inFile = new HashSet<>();
      for (int h : hashes) inFile.add(h);
      Set<Integer> ever = new HashSet<>();
      for (int id = 1; id <= 4; id++) ever.add(keyHash(id));
      for (int id : live.get(day)) assertTrue(inFile.contains(keyHash(id)), "key " + id + " of day " + day);
      assertTrue(ever.containsAll(inFile), "only keys the partition ever held: " + inFile);
      // Written back by Lagoon: the same bytes.
      Path copy = new Path(tmp.resolve(e.fileName).toUri());
      HashIndexFile.write(io, copy, hashes);
      assertArrayEquals(io.readBytes(table.paths().indexFile(e.fileName)), io.readBytes(copy));
    }
    assertEquals(2, hashFiles, "one HASH file per partition's bucket");
  }

  @Test
  void aTruncatedFileIsRefusedNamingIt() throws IOException {
    java.nio.file.Path bad = tmp.resolve("index-bad-0");
    Files.write(bad, new byte[] {0, 0, 0, 1, 7});
    IOException e = assertThrows(IOException.class,
        () -> HashIndexFile.read(new FileIO(new Configuration()), new Path(bad.toUri())));
    assertTrue(e.getMessage().contains("index-bad-0") && e.getMessage().contains("5 bytes"), e.getMessage());
  }
}
