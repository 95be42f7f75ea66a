package io.lagoon.spark.read;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.TimeTravel;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Paimon's time-travel read options of a DataFrame read: {@code scan.snapshot-id},
 * {@code scan.tag-name}, {@code scan.version} (a tag, else a snapshot id), {@code scan.timestamp-millis}
 * and {@code scan.timestamp} (a local date-time in the session time zone). At most one may be
 * given. The rows are those of the snapshot, read with the columns of the table's current schema
 * (Spark fixed them before the options reach the scan); {@code VERSION AS OF} and
 * {@code TIMESTAMP AS OF} read with the snapshot's own schema.
 */
public final class TimeTravelOptions {
  static final String SNAPSHOT_ID = "scan.snapshot-id";
  static final String TAG_NAME = "scan.tag-name";
  static final String VERSION = "scan.version";
  static final String TIMESTAMP_MILLIS = "scan.timestamp-millis";
  static final String TIMESTAMP = "scan.timestamp";
  private static final List<String> KEYS = List.of(SNAPSHOT_ID, TAG_NAME, VERSION, TIMESTAMP_MILLIS, TIMESTAMP);

  private TimeTravelOptions() {
  }

  /** The snapshot the options name, or null when they name none (read the latest). */
  public static Snapshot snapshot(FileStoreTable table, CaseInsensitiveStringMap options) {
    List<String> given = new ArrayList<>();
    for (String k : KEYS) if (options.containsKey(k)) given.add(k);
    if (given.isEmpty()) return null;
    if (given.size() > 1) {
      throw new IllegalArgumentException("Read of " + table.fullName() + " names several snapshots: " + given
          + "; give only one of " + KEYS);
    }
    String key = given.get(0);
    String value = options.get(key).trim();
    TimeTravel travel = table.timeTravel();
    try {
      switch (key) {
        case SNAPSHOT_ID: return travel.snapshot(number(table, key, value));
        case TAG_NAME: return travel.tag(value);
        case VERSION: return travel.version(value);
        case TIMESTAMP_MILLIS: return travel.atOrBefore(number(table, key, value));
        default: return travel.atOrBefore(localMillis(table, value));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  private static long number(FileStoreTable table, String key, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Read option " + key + " of " + table.fullName() + " must be a whole number, got '"
          + value + "'");
    }
  }

  private static long localMillis(FileStoreTable table, String value) {
    ZoneId zone = ZoneId.of(SQLConf.get().sessionLocalTimeZone());
    try {
      LocalDateTime t = value.length() == 10 ? LocalDate.parse(value).atStartOfDay()
          : LocalDateTime.parse(value.replace(' ', 'T'));
      return t.atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("Read option " + TIMESTAMP + " of " + table.fullName()
          + " must be a date-time such as '2024-06-01 12:30:00' (session time zone), got '" + value + "'");
    }
  }
}
