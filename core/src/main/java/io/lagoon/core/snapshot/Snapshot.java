package io.lagoon.core.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Serializable;

/**
 * A snapshot: one committed version of a table. Written as Paimon's snapshot JSON (version 3,
 * the 0.9 field set plus the 1.x manifest-list sizes, which older readers ignore).
 */
public final class Snapshot implements Serializable {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public final long id;
  public final long schemaId;
  public final String baseManifestList;
  public final Long baseManifestListSize;
  public final String deltaManifestList;
  public final Long deltaManifestListSize;
  public final String changelogManifestList;
  public final String indexManifest;
  public final String commitUser;
  public final long commitIdentifier;
  public final CommitKind commitKind;
  public final long timeMillis;
  public final Long totalRecordCount;
  public final Long deltaRecordCount;
  public final Long changelogRecordCount;
  public final Long watermark;

  public Snapshot(long id, long schemaId, String baseManifestList, Long baseManifestListSize,
                  String deltaManifestList, Long deltaManifestListSize, String changelogManifestList,
                  String indexManifest, String commitUser, long commitIdentifier, CommitKind commitKind,
                  long timeMillis, Long totalRecordCount, Long deltaRecordCount, Long changelogRecordCount,
                  Long watermark) {
    this.id = id;
    this.schemaId = schemaId;
    this.baseManifestList = baseManifestList;
    this.baseManifestListSize = baseManifestListSize;
    this.deltaManifestList = deltaManifestList;
    this.deltaManifestListSize = deltaManifestListSize;
    this.changelogManifestList = changelogManifestList;
    this.indexManifest = indexManifest;
    this.commitUser = commitUser;
    this.commitIdentifier = commitIdentifier;
    this.commitKind = commitKind;
    this.timeMillis = timeMillis;
    this.totalRecordCount = totalRecordCount;
    this.deltaRecordCount = deltaRecordCount;
    this.changelogRecordCount = changelogRecordCount;
    this.watermark = watermark;
  }

  public String toJson() {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("version", 3);
    n.put("id", id);
    n.put("schemaId", schemaId);
    n.put("baseManifestList", baseManifestList);
    if (baseManifestListSize != null) n.put("baseManifestListSize", baseManifestListSize);
    n.put("deltaManifestList", deltaManifestList);
    if (deltaManifestListSize != null) n.put("deltaManifestListSize", deltaManifestListSize);
    if (changelogManifestList == null) n.putNull("changelogManifestList");
    else n.put("changelogManifestList", changelogManifestList);
    if (indexManifest != null) n.put("indexManifest", indexManifest);
    n.put("commitUser", commitUser);
    n.put("commitIdentifier", commitIdentifier);
    n.put("commitKind", commitKind.name());
    n.put("timeMillis", timeMillis);
    n.putObject("logOffsets");
    if (totalRecordCount != null) n.put("totalRecordCount", totalRecordCount);
    if (deltaRecordCount != null) n.put("deltaRecordCount", deltaRecordCount);
    if (changelogRecordCount != null) n.put("changelogRecordCount", changelogRecordCount);
    if (watermark != null) n.put("watermark", watermark);
    try {
      return MAPPER.writeValueAsString(n);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static Snapshot fromJson(String json) throws IOException {
    JsonNode n = MAPPER.readTree(json);
    if (n == null || !n.isObject() || !n.has("id") || !n.has("schemaId")) {
      throw new IOException("not a snapshot document");
    }
    return new Snapshot(
        n.get("id").asLong(),
        n.get("schemaId").asLong(),
        text(n, "baseManifestList"),
        longOrNull(n, "baseManifestListSize"),
        text(n, "deltaManifestList"),
        longOrNull(n, "deltaManifestListSize"),
        text(n, "changelogManifestList"),
        text(n, "indexManifest"),
        text(n, "commitUser"),
        n.has("commitIdentifier") ? n.get("commitIdentifier").asLong() : Long.MAX_VALUE,
        CommitKind.valueOf(n.get("commitKind").asText()),
        n.get("timeMillis").asLong(),
        longOrNull(n, "totalRecordCount"),
        longOrNull(n, "deltaRecordCount"),
        longOrNull(n, "changelogRecordCount"),
        longOrNull(n, "watermark"));
  }

  private static String text(JsonNode n, String f) {
    JsonNode v = n.get(f);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static Long longOrNull(JsonNode n, String f) {
    JsonNode v = n.get(f);
    return v == null || v.isNull() ? null : v.asLong();
  }
}
