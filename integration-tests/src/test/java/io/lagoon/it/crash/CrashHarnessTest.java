package io.lagoon.it.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.fs.FileIO;
import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kills writer JVMs with SIGKILL at random points of a loop of statements and checks the table
 * after every kill against {@link CrashWorkload}'s model: every statement that returned is
 * visible, none is partially visible, and Lagoon and Paimon 1.3.1 read the same rows. What a kill
 * leaves (temporary files, unreferenced data files) is never read. The race mode runs two writer
 * JVMs on one table, each checking after every statement that it sees its own write, and kills
 * one of them on the way.
 *
 * <p>The build runs a few kills ({@code lagoon.crash.kills}, default 2 per table kind); the
 * {@code soak} profile runs many more. The seed of each run is printed, and {@code
 * lagoon.crash.seed} replays one.
 */
@RequiresPaimon131
class CrashHarnessTest extends LagoonSparkTest {
  private static final int KILLS = Integer.getInteger("lagoon.crash.kills", 2);
  private static final int RACE_STATEMENTS = Integer.getInteger("lagoon.crash.raceStatements", 10);
  private static final long SEED = Long.getLong("lagoon.crash.seed", System.nanoTime());

  private static Path work(String name) throws IOException {
    Path dir = warehouse.getParent().resolve("lagoon-crash-" + name + "-" + System.nanoTime());
    Files.createDirectories(dir);
    return dir;
  }

  @ParameterizedTest
  @EnumSource(CrashWorkload.Kind.class)
  void killedWritersLeaveNoPartialStatement(CrashWorkload.Kind kind) throws Exception {
    Random rnd = new Random(SEED + kind.ordinal());
    System.out.println("CrashHarnessTest " + kind + ": seed " + (SEED + kind.ordinal()) + ", kills " + KILLS);
    String table = "lake.crash." + kind.name().toLowerCase();
    sql("CREATE NAMESPACE IF NOT EXISTS lake.crash");
    sql(CrashWorkload.create(table, kind));
    Path tableDir = warehouse.resolve("crash.db").resolve(kind.name().toLowerCase());
    Path work = work(kind.name());
    Journal journal = new Journal(work.resolve("journal"));
    int next = 1;
    for (int kill = 0; kill < KILLS; kill++) {
      ChildWriter child = ChildWriter.start(warehouse, table, kind, 0, next, next + 1000, work.resolve("journal"),
          false, work.resolve("child.log"));
      // Somewhere in the first few statements of this run (a warm statement takes about 0.1-0.3 s):
      // before, inside or after its commits.
      int target = next + rnd.nextInt(3);
      child.await(() -> journal.numbers("begin").contains(target), "statement " + target, 180);
      Thread.sleep(rnd.nextInt(400));
      child.kill();
      System.out.println("CrashHarnessTest " + kind + ": killed after " + tailOf(journal.lines(), 3) + ", visible "
          + CrashWorkload.visible(spark, table, 0));
      check(kind, table, tableDir, journal, "after kill " + (kill + 1) + " (in statement " + last(journal) + ")");
      next = CrashLoopWriter.nextStatement(journal.numbers("begin"), next);
    }
    // A last run to the end: everything it did is visible.
    ChildWriter child = ChildWriter.start(warehouse, table, kind, 0, next, next + 1, work.resolve("journal"), false,
        work.resolve("child.log"));
    assertEquals(0, child.finish(180), "the last writer run ends normally; log:\n" + child.tail());
    assertEquals(List.of(next, next + 1), tailOf(journal.numbers("done"), 2));
    check(kind, table, tableDir, journal, "after the last run");
  }

  @ParameterizedTest
  @EnumSource(value = CrashWorkload.Kind.class, names = {"DV", "APPEND_BUCKETED", "DYNAMIC", "CROSS", "POSTPONED", "INPUT"})
  void twoWriterJvmsRaceAndOneIsKilled(CrashWorkload.Kind kind) throws Exception {
    Random rnd = new Random(SEED);
    System.out.println("CrashHarnessTest race " + kind + ": seed " + SEED + ", statements " + RACE_STATEMENTS);
    String name = "race_" + kind.name().toLowerCase();
    String table = "lake.crash." + name;
    sql("CREATE NAMESPACE IF NOT EXISTS lake.crash");
    sql(CrashWorkload.create(table, kind));
    Path tableDir = warehouse.resolve("crash.db").resolve(name);
    Path work = work(name);
    Journal[] journals = {new Journal(work.resolve("journal-0")), new Journal(work.resolve("journal-1"))};
    ChildWriter w0 = ChildWriter.start(warehouse, table, kind, 0, 1, RACE_STATEMENTS, work.resolve("journal-0"), true,
        work.resolve("w0.log"));
    ChildWriter w1 = ChildWriter.start(warehouse, table, kind, 1, 1, RACE_STATEMENTS, work.resolve("journal-1"), true,
        work.resolve("w1.log"));
    int target = 1 + rnd.nextInt(Math.max(1, RACE_STATEMENTS / 2));
    w1.await(() -> journals[1].numbers("begin").contains(target), "writer 1's statement " + target, 180);
    Thread.sleep(rnd.nextInt(1500));
    w1.kill();
    int resume = CrashLoopWriter.nextStatement(journals[1].numbers("begin"), 1);
    ChildWriter again = ChildWriter.start(warehouse, table, kind, 1, resume, resume + RACE_STATEMENTS / 2,
        work.resolve("journal-1"), true, work.resolve("w1.log"));
    assertEquals(0, w0.finish(300), "writer 0 saw each of its statements after it returned; log:\n" + w0.tail());
    assertEquals(0, again.finish(300), "writer 1 (restarted) saw each of its statements; log:\n" + again.tail());
    for (Journal j : journals) assertEquals(List.of(), j.violations());
    check(kind, table, tableDir, journals[0], 0, "after the race");
    check(kind, table, tableDir, journals[1], 1, "after the race");
  }

  /** The earliest snapshot id kept, or -1 before the first commit. */
  private static long earliestSnapshot(Path tableDir) throws IOException {
    if (!Files.isDirectory(tableDir.resolve("snapshot"))) return -1;
    try (Stream<Path> s = Files.list(tableDir.resolve("snapshot"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("snapshot-\\d+"))
          .mapToLong(n -> Long.parseLong(n.substring("snapshot-".length()))).min().orElse(-1);
    }
  }

  private static String last(Journal journal) {
    List<Integer> begun = journal.numbers("begin");
    return begun.isEmpty() ? "none" : String.valueOf(begun.get(begun.size() - 1));
  }

  private static <T> List<T> tailOf(List<T> l, int n) {
    return l.subList(Math.max(0, l.size() - n), l.size());
  }

  private static void check(CrashWorkload.Kind kind, String table, Path tableDir, Journal journal, String when)
      throws IOException {
    check(kind, table, tableDir, journal, 0, when);
  }

  /** The model check of one writer's rows, Paimon's view against Lagoon's, and no leftover read. */
  private static void check(CrashWorkload.Kind kind, String table, Path tableDir, Journal journal, int writer,
                            String when) throws IOException {
    Map<Integer, Long> visible = CrashWorkload.visible(spark, table, writer);
    // A statement that failed as a conflict committed nothing: it must show as never run.
    List<Integer> ran = new ArrayList<>(journal.numbers("begin"));
    ran.removeAll(journal.numbers("conflict"));
    List<String> wrong = CrashWorkload.violations(kind, visible, journal.numbers("done"), ran);
    assertEquals(List.of(), wrong, kind + " " + when + ": journal " + journal.lines() + ", visible " + visible);
    List<String> lagoon = SparkRows.renderAll(spark.sql("SELECT * FROM " + table));
    assertEquals(lagoon, PaimonOracle.readRows(tableDir), kind + " " + when + ": Paimon 1.3.1 reads what Lagoon reads");
    // Leftovers of the kills are only temporary or unreferenced files; count the temporary ones.
    List<String> temporary = new ArrayList<>();
    try (Stream<Path> s = Files.walk(tableDir)) {
      s.filter(p -> FileIO.isTemporaryFile(p.getFileName().toString())).forEach(p -> temporary.add(p.toString()));
    }
    if (!temporary.isEmpty()) System.out.println("CrashHarnessTest " + kind + " " + when + ": temporary files " + temporary);
    long earliest = kind == CrashWorkload.Kind.INPUT ? earliestSnapshot(tableDir) : -1;
    if (earliest > 0) {
      // Paimon's streaming reader over every snapshot kept: each statement's changelog is whole.
      Map<Integer, Long> changelog = new java.util.TreeMap<>();
      java.util.regex.Pattern record = java.util.regex.Pattern.compile("stmt=(\\d+), w=(\\d+)");
      for (List<String> batch : PaimonOracle.streamChanges(tableDir, earliest)) {
        for (String r : batch) {
          java.util.regex.Matcher m = record.matcher(r);
          assertTrue(m.find(), r);
          if (Integer.parseInt(m.group(2)) == writer) changelog.merge(Integer.parseInt(m.group(1)), 1L, Long::sum);
        }
      }
      assertTrue(journal.numbers("done").isEmpty() || !changelog.isEmpty(), kind + " " + when + ": no changelog");
      for (Map.Entry<Integer, Long> e : changelog.entrySet()) {
        assertEquals(CrashWorkload.ROWS, (long) e.getValue(), kind + " " + when + ": the changelog of statement "
            + e.getKey() + " is partial: " + changelog);
      }
    }
    assertTrue(visible.size() <= (kind.append() ? journal.numbers("begin").size() : 1));
  }
}
