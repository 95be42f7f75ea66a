package io.lagoon.core.table;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Builds partition folder names ({@code dt=19723/region=eu}) the way Paimon does by default
 * (legacy naming: a value's internal string form, so a DATE is its epoch day), Hive-escaped.
 * Readers never parse these names; they rebuild them from the partition row.
 */
public final class PartitionPaths {
  private static final BitSet ESCAPED = new BitSet(128);

  static {
    for (char c = 0; c < ' '; c++) ESCAPED.set(c);
    for (char c : "\"#%'*/:=?\\\u007F{[]^".toCharArray()) ESCAPED.set(c);
  }

  private PartitionPaths() {}

  public static String path(List<DataField> partitionFields, InternalRow values, String defaultName) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < partitionFields.size(); i++) {
      DataField f = partitionFields.get(i);
      String v = values.isNullAt(i) ? null : valueString(values, i, f.type());
      if (v == null || v.trim().isEmpty()) v = defaultName;
      sb.append(escape(f.name())).append('=').append(escape(v)).append('/');
    }
    return sb.toString();
  }

  /** A partition value as text (legacy form: dates as epoch days, timestamps as ISO local time). */
  public static String valueString(InternalRow row, int i, PaimonType t) {
    switch (t.root()) {
      case BOOLEAN: return Boolean.toString(row.getBoolean(i));
      case TINYINT: return Byte.toString(row.getByte(i));
      case SMALLINT: return Short.toString(row.getShort(i));
      case INT: case DATE: case TIME: return Integer.toString(row.getInt(i));
      case BIGINT: return Long.toString(row.getLong(i));
      case FLOAT: return Float.toString(row.getFloat(i));
      case DOUBLE: return Double.toString(row.getDouble(i));
      case DECIMAL: return row.getDecimal(i, t.precision(), t.scale()).toJavaBigDecimal().toPlainString();
      case CHAR: case VARCHAR: return row.getUTF8String(i).toString();
      case TIMESTAMP: case TIMESTAMP_LTZ: {
        long micros = row.getLong(i);
        LocalDateTime ldt = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
            (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        return ldt.toString();
      }
      default:
        throw new IllegalArgumentException("Type " + t + " cannot be a partition column");
    }
  }

  static String escape(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 128 && ESCAPED.get(c)) {
        if (sb == null) sb = new StringBuilder(s.substring(0, i));
        sb.append('%').append(String.format("%02X", (int) c));
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }
}
