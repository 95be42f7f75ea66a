package io.lagoon.it.crash;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The child JVM of the crash harness: runs statements {@code first..last} of one writer against
 * a table, journaling each (see {@link Journal}), until it is killed or done. With {@code check},
 * it reads its own rows back after every statement and journals a violation when that statement
 * is not exactly what it sees (a statement that returned must be visible to the next read).
 *
 * <p>Arguments: warehouse-uri table kind writer first last journal check(true|false)
 */
public final class CrashLoopWriter {
  private CrashLoopWriter() {}

  public static void main(String[] args) {
    String warehouse = args[0];
    String table = args[1];
    CrashWorkload.Kind kind = CrashWorkload.Kind.valueOf(args[2]);
    int writer = Integer.parseInt(args[3]);
    int first = Integer.parseInt(args[4]);
    int last = Integer.parseInt(args[5]);
    Journal journal = new Journal(Path.of(args[6]));
    boolean check = Boolean.parseBoolean(args[7]);
    SparkSession spark = SparkSession.builder()
        .master("local[1]")
        .appName("lagoon-crash-writer-" + writer)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.catalog.lake", "io.lagoon.spark.LagoonCatalog")
        .config("spark.sql.catalog.lake.warehouse", warehouse)
        .config("spark.sql.extensions", "io.lagoon.spark.extensions.LagoonSparkSessionExtensions")
        .getOrCreate();
    journal.append("ready");
    int failures = 0;
    int lastData = -1;
    for (int i = first; i <= last; i++) {
      journal.append("begin " + i);
      try {
        spark.sql(CrashWorkload.statement(table, kind, writer, i));
      } catch (RuntimeException e) {
        // Racing writers: a statement that read files another writer's commit then removed (a
        // compaction, a copy-on-write rewrite) fails as a conflict and commits nothing; that is
        // an outcome, not a failure. It stays "begun" in the journal, never "done".
        if (!isConflict(e)) throw e;
        journal.append("conflict " + i);
        continue;
      }
      journal.append("done " + i);
      if (!CrashWorkload.isMaintenance(i)) lastData = i;
      if (check) {
        Map<Integer, Long> seen = CrashWorkload.visible(spark, table, writer);
        boolean ok;
        if (kind.append()) {
          ok = CrashWorkload.isRewrite(kind, i) || Long.valueOf(CrashWorkload.ROWS).equals(seen.get(i));
        } else if (CrashWorkload.isMaintenance(i)) {
          // No row changed: still one whole statement, and not older than this run's last write;
          // or still none, when no write of this writer was ever confirmed (all failed as
          // conflicts, or were killed before they committed).
          ok = seen.size() == 1 && seen.values().iterator().next() == CrashWorkload.ROWS
              && seen.keySet().iterator().next() >= lastData
              || seen.isEmpty() && journal.numbers("done").stream().allMatch(CrashWorkload::isMaintenance);
        } else {
          ok = seen.equals(Map.of(i, (long) CrashWorkload.ROWS));
        }
        if (!ok) {
          journal.append("violation writer " + writer + " after statement " + i + " returned sees " + seen);
          failures++;
        }
      }
    }
    spark.stop();
    System.exit(failures == 0 ? 0 : 3);
  }

  private static boolean isConflict(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof io.lagoon.core.commit.CommitConflictException) return true;
    }
    return false;
  }

  /** The statements a later run may no longer use: every number a journal says has begun. */
  static int nextStatement(List<Integer> begun, int fallback) {
    int max = fallback - 1;
    for (int i : begun) max = Math.max(max, i);
    return max + 1;
  }
}
