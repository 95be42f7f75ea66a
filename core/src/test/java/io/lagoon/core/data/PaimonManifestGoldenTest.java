package io.lagoon.core.data;

import static io.lagoon.core.data.PaimonFixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;

/**
 * Decodes the BinaryRows real Paimon 1.3.1 wrote into the manifests of the {@code pk_part} fixture
 * (partitioned by DATE {@code d}, primary key (id, d)) and re-encodes them to identical bytes.
 */
class PaimonManifestGoldenTest {
  private static final String TABLE = "pk_part";

  private static List<PaimonType> typesOf(List<DataField> fields, String... names) {
    return java.util.Arrays.stream(names)
        .map(n -> fields.stream().filter(f -> f.name().equals(n)).findFirst().orElseThrow().type())
        .collect(Collectors.toList());
  }

  private static void assertReencodes(byte[] serialized, List<PaimonType> types) {
    InternalRow row = BinaryRows.deserialize(serialized, types);
    assertArrayEquals(serialized, BinaryRows.serialize(row, types), "re-encoding gives Paimon's bytes");
  }

  @Test
  void partitionsDecodeToTheDateFolders() throws Exception {
    List<DataField> fields = schemaFields(TABLE);
    List<PaimonType> partTypes = typesOf(fields, "d");
    Set<Integer> days = new TreeSet<>();
    for (GenericRecord e : manifestEntries(TABLE)) {
      byte[] part = bytes(e, "_PARTITION");
      assertEquals(1, BinaryRows.arity(part));
      assertEquals(4 + 16, part.length);
      InternalRow row = BinaryRows.deserialize(part, partTypes);
      days.add(row.getInt(0));
      assertReencodes(part, partTypes);
    }
    assertEquals(Set.of(19723, 19724), days);
    assertEquals(LocalDate.of(2024, 1, 1), LocalDate.ofEpochDay(19723));
  }

  @Test
  void keysAreTheTrimmedPrimaryKey() throws Exception {
    List<PaimonType> keyTypes = typesOf(schemaFields(TABLE), "id"); // (id, d) minus partition key d
    Set<Integer> ids = new TreeSet<>();
    for (GenericRecord e : manifestEntries(TABLE)) {
      GenericRecord f = file(e);
      for (String k : new String[] {"_MIN_KEY", "_MAX_KEY"}) {
        byte[] key = bytes(f, k);
        assertEquals(1, BinaryRows.arity(key));
        int id = BinaryRows.deserialize(key, keyTypes).getInt(0);
        assertTrue(id >= 1 && id <= 4, "id " + id);
        ids.add(id);
        assertReencodes(key, keyTypes);
      }
      GenericRecord keyStats = (GenericRecord) f.get("_KEY_STATS");
      assertReencodes(bytes(keyStats, "_MIN_VALUES"), keyTypes);
      assertReencodes(bytes(keyStats, "_MAX_VALUES"), keyTypes);
      int min = BinaryRows.deserialize(bytes(f, "_MIN_KEY"), keyTypes).getInt(0);
      int max = BinaryRows.deserialize(bytes(f, "_MAX_KEY"), keyTypes).getInt(0);
      assertTrue(min <= max);
    }
    assertTrue(ids.containsAll(Set.of(1, 4)), ids.toString());
  }

  @Test
  void valueStatsDecodeToTheWrittenValues() throws Exception {
    List<DataField> fields = schemaFields(TABLE);
    List<PaimonType> types = fields.stream().map(DataField::type).collect(Collectors.toList());
    assertEquals("TIMESTAMP(6)", types.get(6).toString());
    assertEquals("DECIMAL(10, 2)", types.get(4).toString());
    int checked = 0;
    for (GenericRecord e : manifestEntries(TABLE)) {
      int partDay = BinaryRows.deserialize(bytes(e, "_PARTITION"), typesOf(fields, "d")).getInt(0);
      GenericRecord stats = (GenericRecord) file(e).get("_VALUE_STATS");
      for (String k : new String[] {"_MIN_VALUES", "_MAX_VALUES"}) {
        byte[] serialized = bytes(stats, k);
        assertEquals(7, BinaryRows.arity(serialized));
        InternalRow r = BinaryRows.deserialize(serialized, types);
        int id = r.getInt(0);
        assertTrue(id >= 1 && id <= 4);
        assertEquals(1_000_000_000_000L + id, r.getLong(1), "big follows id in the fixture");
        String name = r.getUTF8String(2).toString();
        assertTrue(name.matches("[pq]" + id + "(-v2)?"), name);
        assertEquals(partDay == 19723 ? 'p' : 'q', name.charAt(0));
        assertEquals(id * 1.5, r.getDouble(3), 1e-9);
        BigDecimal amount = r.getDecimal(4, 10, 2).toJavaBigDecimal();
        assertEquals(2, amount.scale());
        assertTrue(amount.signum() > 0 && amount.compareTo(new BigDecimal("100.00")) <= 0, amount.toString());
        assertEquals(partDay, r.getInt(5), "stats of d equal the partition");
        LocalDateTime ts = LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC).plus(r.getLong(6), ChronoUnit.MICROS);
        assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5 + id, 123_456_000), ts);
        assertReencodes(serialized, types);
        checked++;
      }
    }
    assertTrue(checked >= 8, "checked " + checked + " stats rows");
  }

  @Test
  void statsRowReadWithALaterSchemaGetsNullsForNewColumns() throws Exception {
    List<DataField> fields = schemaFields(TABLE);
    List<PaimonType> types = new java.util.ArrayList<>(fields.stream().map(DataField::type).collect(Collectors.toList()));
    types.add(PaimonType.decimal(38, 4));
    byte[] serialized = bytes((GenericRecord) file(manifestEntries(TABLE).get(0)).get("_VALUE_STATS"), "_MIN_VALUES");
    InternalRow r = BinaryRows.deserialize(serialized, types);
    assertEquals(8, r.numFields());
    assertTrue(r.isNullAt(7));
    assertFalse(r.isNullAt(6));
  }
}
