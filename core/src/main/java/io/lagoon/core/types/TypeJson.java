package io.lagoon.core.types;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes types as Paimon's schema JSON holds them: atomic types as strings
 * ({@code "BIGINT NOT NULL"}), nested ones as objects ({@code {"type":"ARRAY","element":..}}).
 */
public final class TypeJson {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final Pattern ATOMIC = Pattern.compile(
      "^([A-Z_ ]+?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*(WITH LOCAL TIME ZONE|WITHOUT TIME ZONE)?\\s*(NOT NULL|NULL)?$");

  private TypeJson() {}

  public static JsonNode toJson(PaimonType t) {
    switch (t.root()) {
      case ARRAY: case MULTISET: {
        ObjectNode n = F.objectNode();
        n.put("type", t.atomicString());
        n.set("element", toJson(t.element()));
        return n;
      }
      case MAP: {
        ObjectNode n = F.objectNode();
        n.put("type", t.atomicString());
        n.set("key", toJson(t.key()));
        n.set("value", toJson(t.value()));
        return n;
      }
      case ROW: {
        ObjectNode n = F.objectNode();
        n.put("type", t.atomicString());
        n.set("fields", fieldsToJson(t.fields()));
        return n;
      }
      default:
        return F.textNode(t.atomicString());
    }
  }

  public static ArrayNode fieldsToJson(List<DataField> fields) {
    ArrayNode arr = F.arrayNode();
    for (DataField f : fields) {
      ObjectNode n = F.objectNode();
      n.put("id", f.id());
      n.put("name", f.name());
      n.set("type", toJson(f.type()));
      if (f.description() != null) n.put("description", f.description());
      arr.add(n);
    }
    return arr;
  }

  public static List<DataField> fieldsFromJson(JsonNode arr) {
    List<DataField> out = new ArrayList<>();
    for (JsonNode n : arr) {
      JsonNode d = n.get("description");
      out.add(new DataField(n.get("id").asInt(), n.get("name").asText(), fromJson(n.get("type")),
          d == null || d.isNull() ? null : d.asText()));
    }
    return out;
  }

  public static PaimonType fromJson(JsonNode n) {
    if (n.isTextual()) return parseAtomic(n.asText());
    String head = n.get("type").asText().trim().toUpperCase(Locale.ROOT);
    boolean notNull = head.endsWith("NOT NULL");
    String root = head.replace("NOT NULL", "").trim();
    PaimonType t;
    switch (root) {
      case "ARRAY": t = PaimonType.array(fromJson(n.get("element"))); break;
      case "MULTISET": t = PaimonType.multiset(fromJson(n.get("element"))); break;
      case "MAP": t = PaimonType.map(fromJson(n.get("key")), fromJson(n.get("value"))); break;
      case "ROW": t = PaimonType.row(fieldsFromJson(n.get("fields"))); break;
      default: throw new IllegalArgumentException("Unsupported Paimon type in schema: " + n);
    }
    return notNull ? t.notNull() : t;
  }

  /** Parses an atomic Paimon type string such as {@code TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL}. */
  public static PaimonType parseAtomic(String text) {
    Matcher m = ATOMIC.matcher(text.trim().toUpperCase(Locale.ROOT));
    if (!m.matches()) throw new IllegalArgumentException("Unsupported Paimon type: " + text);
    String name = m.group(1).trim();
    Integer a = m.group(2) == null ? null : Integer.valueOf(m.group(2));
    Integer b = m.group(3) == null ? null : Integer.valueOf(m.group(3));
    boolean ltz = "WITH LOCAL TIME ZONE".equals(m.group(4));
    boolean notNull = "NOT NULL".equals(m.group(5));
    PaimonType t;
    switch (name) {
      case "BOOLEAN": t = PaimonType.of(TypeRoot.BOOLEAN); break;
      case "TINYINT": t = PaimonType.of(TypeRoot.TINYINT); break;
      case "SMALLINT": t = PaimonType.of(TypeRoot.SMALLINT); break;
      case "INT": case "INTEGER": t = PaimonType.of(TypeRoot.INT); break;
      case "BIGINT": t = PaimonType.of(TypeRoot.BIGINT); break;
      case "FLOAT": t = PaimonType.of(TypeRoot.FLOAT); break;
      case "DOUBLE": t = PaimonType.of(TypeRoot.DOUBLE); break;
      case "DECIMAL": case "NUMERIC": case "DEC":
        t = PaimonType.decimal(a == null ? 10 : a, b == null ? 0 : b); break;
      case "STRING": t = PaimonType.of(TypeRoot.VARCHAR); break;
      case "VARCHAR": t = PaimonType.withLength(TypeRoot.VARCHAR, a == null ? 1 : a); break;
      case "CHAR": t = PaimonType.withLength(TypeRoot.CHAR, a == null ? 1 : a); break;
      case "BYTES": t = PaimonType.of(TypeRoot.VARBINARY); break;
      case "VARBINARY": t = PaimonType.withLength(TypeRoot.VARBINARY, a == null ? 1 : a); break;
      case "BINARY": t = PaimonType.withLength(TypeRoot.BINARY, a == null ? 1 : a); break;
      case "DATE": t = PaimonType.of(TypeRoot.DATE); break;
      case "TIME": t = PaimonType.time(a == null ? 0 : a); break;
      case "TIMESTAMP": t = PaimonType.timestamp(a == null ? 6 : a, ltz); break;
      case "TIMESTAMP_LTZ": t = PaimonType.timestamp(a == null ? 6 : a, true); break;
      default: throw new IllegalArgumentException("Unsupported Paimon type: " + text);
    }
    return notNull ? t.notNull() : t;
  }
}
