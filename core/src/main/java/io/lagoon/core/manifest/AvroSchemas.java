package io.lagoon.core.manifest;

import org.apache.avro.Schema;

/**
 * The Avro schemas of Paimon's metadata files, in the field set Paimon 0.9 writes (every later
 * release reads it; fields are matched by name). Each row starts with an undocumented
 * {@code _VERSION} column. A data file's record also carries the two nullable fields Paimon 1.0
 * added, {@code _VALUE_STATS_COLS} and {@code _EXTERNAL_PATH}: null for every file Lagoon writes,
 * but kept when a file Paimon 1.x wrote is rewritten (a DELETE entry, a merged manifest), because
 * its stats are positional over {@code _VALUE_STATS_COLS} and its location may be external. Readers
 * that do not know them (0.9) skip them.
 */
final class AvroSchemas {
  private AvroSchemas() {}

  private static String stats(String name) {
    return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":["
        + "{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"
        + "{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},"
        + "{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}";
  }

  static final Schema MANIFEST_LIST = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
          + "{\"name\":\"_VERSION\",\"type\":\"int\"},"
          + "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
          + "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
          + "{\"name\":\"_NUM_ADDED_FILES\",\"type\":\"long\"},"
          + "{\"name\":\"_NUM_DELETED_FILES\",\"type\":\"long\"},"
          + "{\"name\":\"_PARTITION_STATS\",\"type\":" + stats("record__PARTITION_STATS") + "},"
          + "{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"}]}");

  static final Schema MANIFEST = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
          + "{\"name\":\"_VERSION\",\"type\":\"int\"},"
          + "{\"name\":\"_KIND\",\"type\":\"int\"},"
          + "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},"
          + "{\"name\":\"_BUCKET\",\"type\":\"int\"},"
          + "{\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},"
          + "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE\",\"fields\":["
          + "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
          + "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
          + "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},"
          + "{\"name\":\"_MIN_KEY\",\"type\":\"bytes\"},"
          + "{\"name\":\"_MAX_KEY\",\"type\":\"bytes\"},"
          + "{\"name\":\"_KEY_STATS\",\"type\":" + stats("record__FILE__KEY_STATS") + "},"
          + "{\"name\":\"_VALUE_STATS\",\"type\":" + stats("record__FILE__VALUE_STATS") + "},"
          + "{\"name\":\"_MIN_SEQUENCE_NUMBER\",\"type\":\"long\"},"
          + "{\"name\":\"_MAX_SEQUENCE_NUMBER\",\"type\":\"long\"},"
          + "{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},"
          + "{\"name\":\"_LEVEL\",\"type\":\"int\"},"
          + "{\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
          + "{\"name\":\"_CREATION_TIME\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}],\"default\":null},"
          + "{\"name\":\"_DELETE_ROW_COUNT\",\"type\":[\"null\",\"long\"],\"default\":null},"
          + "{\"name\":\"_EMBEDDED_FILE_INDEX\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
          + "{\"name\":\"_FILE_SOURCE\",\"type\":[\"null\",\"int\"],\"default\":null},"
          + "{\"name\":\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null},"
          + "{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null}]}}]}");

  /** Paimon 1.3's index manifest row; 0.9 readers skip {@code _CARDINALITY} and {@code _EXTERNAL_PATH}. */
  static final Schema INDEX_MANIFEST = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
          + "{\"name\":\"_VERSION\",\"type\":\"int\"},"
          + "{\"name\":\"_KIND\",\"type\":\"int\"},"
          + "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},"
          + "{\"name\":\"_BUCKET\",\"type\":\"int\"},"
          + "{\"name\":\"_INDEX_TYPE\",\"type\":\"string\"},"
          + "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
          + "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
          + "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},"
          + "{\"name\":\"_DELETIONS_VECTORS_RANGES\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\","
          + "{\"type\":\"record\",\"name\":\"record__DELETIONS_VECTORS_RANGES\",\"fields\":["
          + "{\"name\":\"f0\",\"type\":\"string\"},"
          + "{\"name\":\"f1\",\"type\":\"int\"},"
          + "{\"name\":\"f2\",\"type\":\"int\"},"
          + "{\"name\":\"_CARDINALITY\",\"type\":[\"null\",\"long\"],\"default\":null}]}]}],\"default\":null},"
          + "{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null}]}");

  static Schema statsSchema(Schema parent, String field) {
    return parent.getField(field).schema();
  }
}
