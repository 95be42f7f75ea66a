package io.lagoon.it.dynamicbucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.dynamicbucket.HashIndexFile;
import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.PaimonType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;

/**
 * What must hold of a dynamic-bucket table after every commit, read through Lagoon's core API and
 * SQL: every key has records in one bucket only, that bucket's HASH index file holds the key's
 * hash while no other bucket's of the partition does, and a read returns each key once.
 */
final class BucketIndexCheck {
  private BucketIndexCheck() {}

  static FileStoreTable load(SparkSession spark, java.nio.file.Path dir, String name) {
    try {
      return FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
          new org.apache.hadoop.fs.Path(dir.toUri().toString()), name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Partition folder ("" unpartitioned) -> bucket -> hashes, from the latest snapshot's HASH index. */
  static Map<String, Map<Integer, int[]>> index(FileStoreTable table) {
    try {
      Map<String, Map<Integer, int[]>> out = new TreeMap<>();
      Snapshot s = table.snapshots().latest().orElseThrow();
      if (s.indexManifest == null) return out;
      for (IndexManifestEntry e : table.manifests().readIndexManifest(s.indexManifest)) {
        if (!e.indexType.equals(HashIndexFile.INDEX_TYPE)) continue;
        int[] hashes = HashIndexFile.read(table.io(), table.paths().indexFile(e.fileName));
        assertEquals(e.rowCount, hashes.length, e.fileName + " counts its hashes");
        int[] had = out.computeIfAbsent(table.paths().partitionPath(e.partition), k -> new TreeMap<>())
            .put(e.bucket, hashes);
        assertEquals(null, had, "one HASH file per bucket");
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Asserts the invariant for a table whose key (without partition columns) is {@code keyColumns}
   * of {@code keyTypes}; returns partition -> bucket -> number of keys with records there.
   */
  static Map<String, Map<Integer, Integer>> assertKeysInTheirIndexedBucket(SparkSession spark, String sqlName,
      java.nio.file.Path dir, List<String> keyColumns, List<PaimonType> keyTypes) {
    FileStoreTable table = load(spark, dir, sqlName);
    Map<String, Map<Integer, int[]>> index = index(table);
    Map<String, Map<Integer, Integer>> hashToBucket = new HashMap<>();
    for (Map.Entry<String, Map<Integer, int[]>> p : index.entrySet()) {
      Map<Integer, Integer> m = hashToBucket.computeIfAbsent(p.getKey(), k -> new HashMap<>());
      for (Map.Entry<Integer, int[]> b : p.getValue().entrySet()) {
        for (int h : b.getValue()) {
          Integer other = m.put(h, b.getKey());
          assertTrue(other == null || other.equals(b.getKey()),
              "hash " + h + " indexed in buckets " + other + " and " + b.getKey() + " of partition '" + p.getKey() + "'");
        }
      }
    }
    List<String> fullKey = new ArrayList<>(keyColumns);
    fullKey.addAll(table.schema().partitionKeys());
    String cols = String.join(", ", fullKey);
    assertEquals(spark.sql("SELECT " + cols + " FROM " + sqlName).count(),
        spark.sql("SELECT DISTINCT " + cols + " FROM " + sqlName).count(), "no key is live twice (in two buckets)");
    // Every record of a live file, retractions too, must be in the bucket its key's hash is indexed in.
    Map<String, Map<Integer, Integer>> sizes = new TreeMap<>();
    Map<String, Map<String, Integer>> bucketOfKey = new HashMap<>();
    String[] fileKeys = new String[keyColumns.size()];
    for (int i = 0; i < fileKeys.length; i++) fileKeys[i] = "_KEY_" + keyColumns.get(i);
    try {
      for (ManifestEntry e : LiveFiles.read(table.manifests(), table.snapshots().latest().orElseThrow())) {
        String partition = table.paths().partitionPath(e.partition);
        List<Row> keys = spark.read().parquet(table.paths().dataFile(e).toString())
            .selectExpr(fileKeys).collectAsList();
        for (Row r : keys) {
          Object[] key = new Object[keyColumns.size()];
          for (int i = 0; i < key.length; i++) key[i] = SparkValues.internal(r.get(i));
          String shown = java.util.Arrays.toString(key);
          Integer was = bucketOfKey.computeIfAbsent(partition, k -> new HashMap<>()).put(shown, e.bucket);
          assertTrue(was == null || was == e.bucket, "key " + shown + " of partition '" + partition
              + "' has records in buckets " + was + " and " + e.bucket);
          if (was == null) sizes.computeIfAbsent(partition, k -> new TreeMap<>()).merge(e.bucket, 1, Integer::sum);
          int hash = BinaryRows.hash(new GenericInternalRow(key), keyTypes);
          Integer indexed = hashToBucket.getOrDefault(partition, Map.of()).get(hash);
          assertEquals(Integer.valueOf(e.bucket), indexed, "key " + shown + " of partition '" + partition
              + "' is in bucket " + e.bucket + "; the HASH index says " + indexed);
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return sizes;
  }

  /** Spark row values as Spark's internal ones, for the key types these tests use. */
  static final class SparkValues {
    private SparkValues() {}

    static Object internal(Object v) {
      if (v instanceof String) return org.apache.spark.unsafe.types.UTF8String.fromString((String) v);
      if (v instanceof java.sql.Date) return (int) ((java.sql.Date) v).toLocalDate().toEpochDay();
      if (v instanceof java.time.LocalDate) return (int) ((java.time.LocalDate) v).toEpochDay();
      return v;
    }
  }

  static List<String> sorted(List<String> in) {
    List<String> out = new ArrayList<>(in);
    out.sort(String::compareTo);
    return out;
  }
}
