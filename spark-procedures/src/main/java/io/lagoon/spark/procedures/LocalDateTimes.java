package io.lagoon.spark.procedures;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import org.apache.spark.sql.internal.SQLConf;

/** Times given as text to procedures: {@code '2024-06-01'}, {@code '2024-06-01 12:30:00[.123]'}, in the session time zone. */
final class LocalDateTimes {
  private LocalDateTimes() {}

  static ZoneId sessionZone() {
    return ZoneId.of(SQLConf.get().sessionLocalTimeZone());
  }

  /** Epoch millis of a date or date-time string, or null when it is neither. */
  static Long parseMillis(String text) {
    String s = text.strip();
    try {
      LocalDateTime t = s.length() == 10 ? LocalDate.parse(s).atStartOfDay() : LocalDateTime.parse(s.replace(' ', 'T'));
      return toMillis(t);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  static long toMillis(LocalDateTime t) {
    return t.atZone(sessionZone()).toInstant().toEpochMilli();
  }
}
