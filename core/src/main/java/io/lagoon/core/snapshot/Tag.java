package io.lagoon.core.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;

/**
 * One tag file's content: the JSON of the snapshot it keeps, plus, for a tag with a retention
 * time, Paimon's {@code tagCreateTime} (a local date-time as the array {@code [y, M, d, H, m, s, nanos]},
 * trailing zero seconds and nanos left out) and {@code tagTimeRetained} (seconds with nine decimals).
 * The snapshot JSON is kept as written, so fields Lagoon does not model survive tagging.
 */
public final class Tag {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  static final String CREATE_TIME = "tagCreateTime";
  static final String TIME_RETAINED = "tagTimeRetained";

  public final String name;
  public final Snapshot snapshot;
  /** Null for a tag that lives until deleted. */
  public final LocalDateTime createTime;
  public final Duration timeRetained;
  private final ObjectNode snapshotJson;

  private Tag(String name, Snapshot snapshot, LocalDateTime createTime, Duration timeRetained, ObjectNode snapshotJson) {
    this.name = name;
    this.snapshot = snapshot;
    this.createTime = createTime;
    this.timeRetained = timeRetained;
    this.snapshotJson = snapshotJson;
  }

  /** A new tag of a snapshot whose JSON is {@code snapshotJson} (a snapshot or another tag file). */
  public static Tag of(String name, String snapshotJson, LocalDateTime createTime, Duration timeRetained) throws IOException {
    ObjectNode node = snapshotNode(snapshotJson);
    return new Tag(name, Snapshot.fromJson(node.toString()), timeRetained == null ? null : createTime, timeRetained, node);
  }

  public static Tag parse(String name, String json) throws IOException {
    JsonNode n = MAPPER.readTree(json);
    if (n == null || !n.isObject()) throw new IOException("not a tag document");
    LocalDateTime created = createTime(n.get(CREATE_TIME));
    JsonNode retained = n.get(TIME_RETAINED);
    Duration d = retained == null || retained.isNull() ? null : seconds(retained.decimalValue());
    ObjectNode node = snapshotNode(json);
    return new Tag(name, Snapshot.fromJson(node.toString()), created, d, node);
  }

  /** Whether the tag's retention has passed at {@code now} (tags without one never expire). */
  public boolean expiredAt(LocalDateTime now) {
    return createTime != null && timeRetained != null && now.isAfter(createTime.plus(timeRetained));
  }

  /** The tag file's JSON. */
  public String toJson() {
    ObjectNode n = snapshotJson.deepCopy();
    if (createTime != null && timeRetained != null) {
      ArrayNode t = n.putArray(CREATE_TIME);
      t.add(createTime.getYear()).add(createTime.getMonthValue()).add(createTime.getDayOfMonth())
          .add(createTime.getHour()).add(createTime.getMinute());
      if (createTime.getSecond() != 0 || createTime.getNano() != 0) t.add(createTime.getSecond());
      if (createTime.getNano() != 0) t.add(createTime.getNano());
      n.put(TIME_RETAINED, BigDecimal.valueOf(timeRetained.getSeconds()).add(BigDecimal.valueOf(timeRetained.getNano(), 9))
          .setScale(9));
    }
    return write(n);
  }

  /** The snapshot file this tag keeps (without the tag's own fields), to restore an expired snapshot. */
  public String snapshotJson() {
    return write(snapshotJson);
  }

  private static String write(ObjectNode n) {
    try {
      return MAPPER.writeValueAsString(n);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ObjectNode snapshotNode(String json) throws IOException {
    JsonNode n = MAPPER.readTree(json);
    if (n == null || !n.isObject() || !n.has("id") || !n.has("schemaId")) throw new IOException("not a snapshot document");
    ObjectNode copy = ((ObjectNode) n).deepCopy();
    copy.remove(CREATE_TIME);
    copy.remove(TIME_RETAINED);
    return copy;
  }

  private static Duration seconds(BigDecimal s) {
    BigDecimal whole = s.setScale(0, java.math.RoundingMode.DOWN);
    return Duration.ofSeconds(whole.longValueExact(), s.subtract(whole).movePointRight(9).longValue());
  }

  private static LocalDateTime createTime(JsonNode t) throws IOException {
    if (t == null || t.isNull()) return null;
    if (t.isTextual()) return LocalDateTime.parse(t.asText());
    if (!t.isArray() || t.size() < 5) throw new IOException("tagCreateTime is not a date-time: " + t);
    return LocalDateTime.of(t.get(0).asInt(), t.get(1).asInt(), t.get(2).asInt(), t.get(3).asInt(), t.get(4).asInt(),
        t.size() > 5 ? t.get(5).asInt() : 0, t.size() > 6 ? t.get(6).asInt() : 0);
  }
}
