package io.lagoon.core.mergetree;

import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * The physical columns of a primary-key table's data file, in Paimon's order: one
 * {@code _KEY_<k>} column per trimmed primary-key field, {@code _SEQUENCE_NUMBER},
 * {@code _VALUE_KIND}, then every table column. Field ids follow Paimon's reserved ranges.
 */
public final class KeyValueLayout {
  public static final String KEY_PREFIX = "_KEY_";
  public static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
  public static final String VALUE_KIND = "_VALUE_KIND";
  static final int KEY_FIELD_ID_START = Integer.MAX_VALUE / 2;
  static final int SEQUENCE_NUMBER_ID = Integer.MAX_VALUE - 1;
  static final int VALUE_KIND_ID = Integer.MAX_VALUE - 2;

  private final List<DataField> keyFields;
  private final List<DataField> valueFields;

  public KeyValueLayout(TableSchema schema) {
    this.keyFields = new ArrayList<>();
    for (String k : schema.trimmedPrimaryKeys()) keyFields.add(schema.field(k));
    this.valueFields = schema.fields();
  }

  public List<DataField> keyFields() { return keyFields; }
  public List<DataField> valueFields() { return valueFields; }
  public int keyArity() { return keyFields.size(); }
  /** Position of the sequence number in a physical row. */
  public int sequencePos() { return keyFields.size(); }
  public int kindPos() { return keyFields.size() + 1; }
  public int valueStart() { return keyFields.size() + 2; }

  public List<PaimonType> keyTypes() {
    List<PaimonType> t = new ArrayList<>();
    for (DataField f : keyFields) t.add(f.type());
    return t;
  }

  public List<PaimonType> valueTypes() {
    List<PaimonType> t = new ArrayList<>();
    for (DataField f : valueFields) t.add(f.type());
    return t;
  }

  /** The physical fields as Paimon types, ids included. */
  public List<DataField> physicalFields() {
    List<DataField> out = new ArrayList<>();
    for (DataField k : keyFields) {
      out.add(new DataField(KEY_FIELD_ID_START + k.id(), KEY_PREFIX + k.name(), k.type().notNull()));
    }
    out.add(new DataField(SEQUENCE_NUMBER_ID, SEQUENCE_NUMBER, PaimonType.of(TypeRoot.BIGINT).notNull()));
    out.add(new DataField(VALUE_KIND_ID, VALUE_KIND, PaimonType.of(TypeRoot.TINYINT).notNull()));
    out.addAll(valueFields);
    return out;
  }

  /** The physical schema as Spark sees it, with Parquet field ids. */
  public StructType sparkSchema() {
    return io.lagoon.core.write.RollingFileWriter.withFieldIds(physicalFields());
  }

}
