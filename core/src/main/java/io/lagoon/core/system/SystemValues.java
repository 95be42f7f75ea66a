package io.lagoon.core.system;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/** Values of system table rows: Spark's internal forms, rendered as Paimon renders them. */
final class SystemValues {
  private SystemValues() {}

  static DataField field(int id, String name, PaimonType type) {
    return new DataField(id, name, type);
  }

  static PaimonType bigint(boolean nullable) {
    PaimonType t = PaimonType.of(TypeRoot.BIGINT);
    return nullable ? t : t.notNull();
  }

  static PaimonType integer(boolean nullable) {
    PaimonType t = PaimonType.of(TypeRoot.INT);
    return nullable ? t : t.notNull();
  }

  static PaimonType string(boolean nullable) {
    PaimonType t = PaimonType.of(TypeRoot.VARCHAR);
    return nullable ? t : t.notNull();
  }

  /** Paimon's TIMESTAMP(3): a local date-time, which Spark reads as TIMESTAMP_NTZ. */
  static PaimonType timestamp(boolean nullable) {
    PaimonType t = PaimonType.timestamp(3, false);
    return nullable ? t : t.notNull();
  }

  static UTF8String str(Object s) {
    return s == null ? null : UTF8String.fromString(s.toString());
  }

  /** An instant (epoch millis) as the local date-time of this JVM's zone, in TIMESTAMP_NTZ micros. */
  static long localMicros(long epochMillis) {
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault());
    return micros(t);
  }

  /** Millis that already hold a local wall clock (as data files' creation times do), in micros. */
  static Long wallClockMicros(Long millis) {
    return millis == null ? null : Math.multiplyExact(millis, 1000L);
  }

  static long micros(LocalDateTime t) {
    Instant i = t.toInstant(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000L);
  }

  static InternalRow row(Object... values) {
    return new GenericInternalRow(values);
  }

  /** Values as Paimon renders a row: {@code {v1, v2}} (nulls as {@code null}). */
  static String braces(List<String> values) {
    return "{" + String.join(", ", values) + "}";
  }

  /** A decoded row's values as strings, in Spark's rendering of each type. */
  static List<String> render(InternalRow row, List<PaimonType> types) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) out.add(render(row, i, types.get(i)));
    return out;
  }

  /**
   * A value as Paimon prints its stored form in stats: dates as epoch days, timestamps as
   * date-times, strings and numbers as themselves.
   */
  static String stored(InternalRow row, int i, PaimonType type) {
    boolean present = row != null && i < row.numFields() && !row.isNullAt(i);
    if (present && type.root() == TypeRoot.DATE) return String.valueOf(row.getInt(i));
    if (present && (type.root() == TypeRoot.TIMESTAMP || type.root() == TypeRoot.TIMESTAMP_LTZ)) {
      return render(row, i, type).replace(' ', 'T');
    }
    return render(row, i, type);
  }

  static String render(InternalRow row, int i, PaimonType type) {
    if (row == null || i >= row.numFields() || row.isNullAt(i)) return "null";
    if (type.root().isNested() || type.root().isBinary()) return "null";
    Object v = row.get(i, io.lagoon.core.types.SparkTypes.toSpark(type));
    switch (type.root()) {
      case DATE:
        return java.time.LocalDate.ofEpochDay((Integer) v).toString();
      case TIMESTAMP:
      case TIMESTAMP_LTZ: {
        long micros = (Long) v;
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1000,
            ZoneOffset.UTC).toString().replace('T', ' ');
      }
      default:
        return String.valueOf(v);
    }
  }
}
