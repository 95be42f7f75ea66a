package io.lagoon.core.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lagoon.core.types.TypeJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads and writes the schema JSON file format (version 3). */
public final class SchemaJson {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private SchemaJson() {}

  public static String toJson(TableSchema s) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("version", 3);
    n.put("id", s.id());
    n.set("fields", TypeJson.fieldsToJson(s.fields()));
    n.put("highestFieldId", s.highestFieldId());
    ArrayNode pk = n.putArray("partitionKeys");
    s.partitionKeys().forEach(pk::add);
    ArrayNode prk = n.putArray("primaryKeys");
    s.primaryKeys().forEach(prk::add);
    ObjectNode opts = n.putObject("options");
    s.options().forEach(opts::put);
    if (s.comment() != null) n.put("comment", s.comment());
    n.put("timeMillis", s.timeMillis());
    try {
      return MAPPER.writeValueAsString(n);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static TableSchema fromJson(String json) throws IOException {
    JsonNode n = MAPPER.readTree(json);
    int version = n.has("version") ? n.get("version").asInt() : 1;
    Map<String, String> options = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = n.get("options").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      options.put(e.getKey(), e.getValue().asText());
    }
    // Old schema versions imply defaults that later versions write explicitly.
    if (version <= 1) options.putIfAbsent("bucket", "1");
    if (version <= 2) options.putIfAbsent("file.format", "orc");
    JsonNode comment = n.get("comment");
    return new TableSchema(
        n.get("id").asLong(),
        TypeJson.fieldsFromJson(n.get("fields")),
        n.get("highestFieldId").asInt(),
        strings(n.get("partitionKeys")),
        strings(n.get("primaryKeys")),
        options,
        comment == null || comment.isNull() ? null : comment.asText(),
        n.has("timeMillis") ? n.get("timeMillis").asLong() : 0L);
  }

  private static List<String> strings(JsonNode arr) {
    List<String> out = new ArrayList<>();
    if (arr != null) for (JsonNode x : arr) out.add(x.asText());
    return out;
  }
}
