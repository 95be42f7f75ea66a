package io.lagoon.core.schema;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One version of a table's schema: the content of {@code schema/schema-N}. */
public final class TableSchema implements Serializable {
  private final long id;
  private final List<DataField> fields;
  private final int highestFieldId;
  private final List<String> partitionKeys;
  private final List<String> primaryKeys;
  private final Map<String, String> options;
  private final String comment;
  private final long timeMillis;

  public TableSchema(long id, List<DataField> fields, int highestFieldId, List<String> partitionKeys,
                     List<String> primaryKeys, Map<String, String> options, String comment, long timeMillis) {
    this.id = id;
    this.fields = List.copyOf(fields);
    this.highestFieldId = highestFieldId;
    this.partitionKeys = List.copyOf(partitionKeys);
    this.primaryKeys = List.copyOf(primaryKeys);
    this.options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    this.comment = comment;
    this.timeMillis = timeMillis;
  }

  public long id() { return id; }
  public List<DataField> fields() { return fields; }
  public int highestFieldId() { return highestFieldId; }
  public List<String> partitionKeys() { return partitionKeys; }
  public List<String> primaryKeys() { return primaryKeys; }
  public Map<String, String> options() { return options; }
  public String comment() { return comment; }
  public long timeMillis() { return timeMillis; }

  public List<String> fieldNames() {
    List<String> n = new ArrayList<>();
    for (DataField f : fields) n.add(f.name());
    return n;
  }

  public int fieldIndex(String name) {
    for (int i = 0; i < fields.size(); i++) if (fields.get(i).name().equals(name)) return i;
    return -1;
  }

  public DataField field(String name) {
    int i = fieldIndex(name);
    if (i < 0) throw new IllegalArgumentException("Column '" + name + "' does not exist; columns: " + fieldNames());
    return fields.get(i);
  }

  public List<DataField> partitionFields() {
    List<DataField> out = new ArrayList<>();
    for (String k : partitionKeys) out.add(field(k));
    return out;
  }

  public List<PaimonType> partitionTypes() {
    List<PaimonType> out = new ArrayList<>();
    for (DataField f : partitionFields()) out.add(f.type());
    return out;
  }

  /** Primary key minus partition keys: what is stored in {@code _KEY_} columns and hashed to buckets. */
  public List<String> trimmedPrimaryKeys() {
    List<String> out = new ArrayList<>(primaryKeys);
    out.removeAll(partitionKeys);
    return out;
  }

  /** The columns hashed to pick a bucket: option {@code bucket-key} if set, else the trimmed key. */
  public List<String> bucketKeys() {
    String v = options.get("bucket-key");
    if (v == null || v.trim().isEmpty()) return trimmedPrimaryKeys();
    List<String> out = new ArrayList<>();
    for (String k : v.split(",")) if (!k.trim().isEmpty()) out.add(k.trim());
    return out;
  }

  public TableSchema withOptions(long newId, Map<String, String> newOptions, long time) {
    return new TableSchema(newId, fields, highestFieldId, partitionKeys, primaryKeys, newOptions, comment, time);
  }

  public TableSchema withComment(long newId, String newComment, long time) {
    return new TableSchema(newId, fields, highestFieldId, partitionKeys, primaryKeys, options, newComment, time);
  }
}
