package io.lagoon.core.data;

import static io.lagoon.core.data.PaimonFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;

/**
 * The {@code pk_dv} fixture (bucket=2, primary key {@code id INT}) was written by Paimon 1.3.1:
 * every key recorded for a data file ({@code _MIN_KEY}, {@code _MAX_KEY}, key stats) must hash to
 * that file's {@code _BUCKET}, and the key rows must re-encode to Paimon's bytes.
 */
class BucketFixtureGoldenTest {
  private static final String TABLE = "pk_dv";

  @Test
  void everyRecordedKeyHashesToItsFilesBucket() throws Exception {
    List<DataField> fields = schemaFields(TABLE);
    List<PaimonType> keyTypes = List.of(fields.get(0).type());
    assertEquals("id", fields.get(0).name());
    Map<Integer, Set<Integer>> idsByBucket = new TreeMap<>();
    for (GenericRecord e : manifestEntries(TABLE)) {
      int bucket = (Integer) e.get("_BUCKET");
      assertEquals(2, (int) (Integer) e.get("_TOTAL_BUCKETS"));
      GenericRecord f = file(e);
      GenericRecord keyStats = (GenericRecord) f.get("_KEY_STATS");
      byte[][] keys = {bytes(f, "_MIN_KEY"), bytes(f, "_MAX_KEY"), bytes(keyStats, "_MIN_VALUES"), bytes(keyStats, "_MAX_VALUES")};
      for (byte[] key : keys) {
        InternalRow row = BinaryRows.deserialize(key, keyTypes);
        assertArrayEquals(key, BinaryRows.serialize(row, keyTypes));
        assertEquals(BinaryRows.hash(BinaryRows.rowBytes(key)), BinaryRows.hash(row, keyTypes));
        int id = row.getInt(0);
        assertEquals(bucket, BucketFunction.bucket(row, keyTypes, 2), "id " + id + " of " + f.get("_FILE_NAME"));
        idsByBucket.computeIfAbsent(bucket, b -> new TreeSet<>()).add(id);
      }
      // Unpartitioned: the partition is the empty row.
      assertArrayEquals(new byte[12], bytes(e, "_PARTITION"));
    }
    assertEquals(Set.of(0, 1), idsByBucket.keySet());
    assertTrue(idsByBucket.get(0).containsAll(Set.of(1, 2, 4, 6)), idsByBucket.toString());
    assertTrue(idsByBucket.get(1).containsAll(Set.of(3, 7)), idsByBucket.toString());
  }
}
