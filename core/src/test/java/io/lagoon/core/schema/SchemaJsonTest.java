package io.lagoon.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String resource(String path) throws IOException {
    try (InputStream in = SchemaJsonTest.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) throw new IllegalStateException("missing test resource " + path);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void paimonSchemaFilesRoundTripExactly() throws IOException {
    for (String table : List.of("pk_part", "pk_dv")) {
      String paimon = resource("fixtures/paimon-1.3.1-warehouse/db.db/" + table + "/schema/schema-0");
      assertEquals(JSON.readTree(paimon), JSON.readTree(SchemaJson.toJson(SchemaJson.fromJson(paimon))), table);
    }
  }

  @Test
  void writesPaimonTypeStringsAndFieldOrder() throws IOException {
    List<DataField> fields = List.of(
        new DataField(0, "id", PaimonType.of(TypeRoot.BIGINT).notNull(), "key"),
        new DataField(1, "amount", PaimonType.decimal(10, 2)),
        new DataField(2, "ts", PaimonType.timestamp(6, true)),
        new DataField(3, "code", PaimonType.withLength(TypeRoot.VARCHAR, 10)),
        new DataField(4, "c", PaimonType.withLength(TypeRoot.CHAR, 5)),
        new DataField(5, "tags", PaimonType.array(PaimonType.of(TypeRoot.VARCHAR))));
    TableSchema s = new TableSchema(2, fields, 5, List.of("code"), List.of(), Map.of("file.format", "orc"), null, 42L);
    JsonNode n = JSON.readTree(SchemaJson.toJson(s));
    assertEquals(3, n.get("version").asInt());
    assertEquals(2, n.get("id").asInt());
    assertEquals("BIGINT NOT NULL", n.get("fields").get(0).get("type").asText());
    assertEquals("key", n.get("fields").get(0).get("description").asText());
    assertFalse(n.get("fields").get(1).has("description"));
    assertEquals("DECIMAL(10, 2)", n.get("fields").get(1).get("type").asText());
    assertEquals("TIMESTAMP(6) WITH LOCAL TIME ZONE", n.get("fields").get(2).get("type").asText());
    assertEquals("VARCHAR(10)", n.get("fields").get(3).get("type").asText());
    assertEquals("CHAR(5)", n.get("fields").get(4).get("type").asText());
    assertEquals("ARRAY", n.get("fields").get(5).get("type").get("type").asText());
    assertFalse(n.has("comment"), "a table without comment has no comment field, as in Paimon's files");
    assertEquals(List.of("version", "id", "fields", "highestFieldId", "partitionKeys", "primaryKeys", "options",
        "timeMillis"), names(n));
    TableSchema back = SchemaJson.fromJson(SchemaJson.toJson(s));
    assertEquals(s.fields(), back.fields());
    assertEquals(s.options(), back.options());
    assertEquals(s.partitionKeys(), back.partitionKeys());
  }

  @Test
  void olderVersionsImplyTheirDefaults() throws IOException {
    String v1 = "{\"version\":1,\"id\":0,\"fields\":[],\"highestFieldId\":-1,\"partitionKeys\":[],"
        + "\"primaryKeys\":[],\"options\":{}}";
    assertEquals(Map.of("bucket", "1", "file.format", "orc"), SchemaJson.fromJson(v1).options());
  }

  private static List<String> names(JsonNode n) {
    List<String> out = new java.util.ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
