package io.lagoon.it.procedures;

import io.lagoon.it.ddl.WarehouseListing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The other writer of a race test: on its own thread, ten rounds each inserting {@code (i, 'v<i>')}
 * and {@code (100 + i, 'w<i>')} into a table of {@code (id, v)} that holds {@code (0, 'zero')},
 * deleting the second row again every third round (retried when it meets a concurrent rewrite).
 * {@link #expected} is what the table must hold once it is done.
 */
final class RacingWrites {
  private final AtomicBoolean writing = new AtomicBoolean(true);
  private final List<String> expected = Collections.synchronizedList(new ArrayList<>(List.of("0,zero")));
  private final ExecutorService pool = Executors.newSingleThreadExecutor();
  private final Future<?> writer;

  /** @param sql runs one statement */
  RacingWrites(String table, Consumer<String> sql) {
    writer = pool.submit(() -> {
      try {
        for (int i = 1; i <= 10; i++) {
          sql.accept("INSERT INTO " + table + " VALUES (" + i + ", 'v" + i + "'), (" + (100 + i) + ", 'w" + i + "')");
          expected.add(i + ",v" + i);
          if (i % 3 == 0) {
            String delete = "DELETE FROM " + table + " WHERE id = " + (100 + i);
            retryingConflicts(() -> sql.accept(delete));
          } else {
            expected.add((100 + i) + ",w" + i);
          }
        }
      } finally {
        writing.set(false);
      }
      return null;
    });
  }

  boolean writing() {
    return writing.get();
  }

  /** Waits for the writer (its failure is rethrown); the rows the table must hold, sorted. */
  List<String> expected() throws Exception {
    writer.get();
    pool.shutdown();
    List<String> out = new ArrayList<>(expected);
    out.sort(String::compareTo);
    return out;
  }

  /** Whether a failure is a commit that lost to a concurrent change. */
  static boolean isConflict(Throwable e) {
    String m = WarehouseListing.messages(e);
    return m.contains("onflict") || m.contains("concurrent");
  }

  /** Runs a statement until it does not meet a concurrent change (at most 20 retries). */
  static void retryingConflicts(Runnable statement) {
    for (int attempt = 0; ; attempt++) {
      try {
        statement.run();
        return;
      } catch (RuntimeException e) {
        if (attempt > 20 || !isConflict(e)) throw e;
      }
    }
  }
}
