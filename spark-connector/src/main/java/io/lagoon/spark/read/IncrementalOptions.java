package io.lagoon.spark.read;

import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.snapshot.TimeTravel;
import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Paimon's batch incremental read options: {@code incremental-between} ({@code 'start,end'},
 * snapshot ids or tag names) and {@code incremental-between-timestamp} ({@code 'start,end'}, epoch
 * millis). Between snapshot ids or times the read returns the records committed after the start up
 * to and including the end; between two tags, the difference between the tagged states (rows
 * added or changed; in {@code $audit_log} also the old values and the removed rows), as Paimon
 * defines both.
 */
public final class IncrementalOptions {
  static final String BETWEEN = "incremental-between";
  static final String BETWEEN_TIMESTAMP = "incremental-between-timestamp";

  private IncrementalOptions() {}

  /** The two points: snapshot ids, and whether they were named by tags (a diff of the two states). */
  public record Range(long from, long to, boolean tags) {
  }

  /** The range the options name, or null when they name none. */
  public static Range range(FileStoreTable table, CaseInsensitiveStringMap options) {
    boolean ids = options.containsKey(BETWEEN);
    boolean times = options.containsKey(BETWEEN_TIMESTAMP);
    if (!ids && !times) return null;
    SnapshotMicroBatchStream.refuseConsumerOnBatch(table.fullName(), options);
    if (ids && times) {
      throw new IllegalArgumentException("Read of " + table.fullName() + " names both " + BETWEEN + " and "
          + BETWEEN_TIMESTAMP + "; give one");
    }
    String key = ids ? BETWEEN : BETWEEN_TIMESTAMP;
    String[] parts = options.get(key).split(",");
    if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
      throw new IllegalArgumentException("Read option " + key + " of " + table.fullName()
          + " must be two points separated by a comma, such as '3,7', got '" + options.get(key) + "'");
    }
    TimeTravel travel = table.timeTravel();
    try {
      if (ids) {
        String a = parts[0].trim();
        String b = parts[1].trim();
        if (numeric(a) != numeric(b)) {
          throw new IllegalArgumentException("Read option " + BETWEEN + " of " + table.fullName()
              + " takes two snapshot ids or two tag names, got '" + options.get(key) + "'");
        }
        return new Range(point(table, travel, a), point(table, travel, b), !numeric(a));
      }
      return new Range(before(table, travel, millis(table, parts[0].trim())),
          before(table, travel, millis(table, parts[1].trim())), false);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  private static boolean numeric(String value) {
    return value.chars().allMatch(Character::isDigit);
  }

  /** The scan of the range: the records committed in it, or the diff of two tagged states. */
  public static org.apache.spark.sql.connector.read.Scan scan(FileStoreTable table, Range range, boolean withKind) {
    if (!range.tags()) return new AuditLogScan(table, withKind, AuditLogScan.incrementalFiles(table, range));
    try {
      return new TagDiffScan(table, withKind, table.snapshots().snapshot(range.from()), table.snapshots().snapshot(range.to()));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the snapshots of " + table.fullName() + ": " + e.getMessage(), e);
    }
  }

  /** A snapshot id as written, or a tag's snapshot. */
  private static long point(FileStoreTable table, TimeTravel travel, String value) throws IOException {
    if (numeric(value)) return Long.parseLong(value);
    return travel.tag(value).id;
  }

  /** The last snapshot committed at or before the time; 0 when none was. */
  private static long before(FileStoreTable table, TimeTravel travel, long millis) throws IOException {
    try {
      Snapshot s = travel.atOrBefore(millis);
      return s.id;
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  private static long millis(FileStoreTable table, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Read option " + BETWEEN_TIMESTAMP + " of " + table.fullName()
          + " takes epoch milliseconds, got '" + value + "'");
    }
  }
}
