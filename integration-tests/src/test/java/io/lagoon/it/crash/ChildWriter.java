package io.lagoon.it.crash;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** A {@link CrashLoopWriter} running in a JVM of its own, on this test's class path. */
final class ChildWriter {
  private final Process process;
  private final Path log;

  private ChildWriter(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static ChildWriter start(Path warehouse, String table, CrashWorkload.Kind kind, int writer, int first, int last,
                           Path journal, boolean check, Path log) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx768m");
    cmd.add("-XX:TieredStopAtLevel=1"); // a short-lived JVM: C1 only starts much faster
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports") || a.startsWith("-XX:+IgnoreUnrecognizedVMOptions")
          || a.startsWith("-Djdk.reflect") || a.startsWith("-Dio.netty")) {
        cmd.add(a);
      }
    }
    String cp = System.getProperty("surefire.test.class.path");
    if (cp == null || cp.isBlank()) cp = System.getProperty("java.class.path");
    cmd.add("-cp");
    cmd.add(cp);
    cmd.add(CrashLoopWriter.class.getName());
    cmd.add(warehouse.toUri().toString());
    cmd.add(table);
    cmd.add(kind.name());
    cmd.add(Integer.toString(writer));
    cmd.add(Integer.toString(first));
    cmd.add(Integer.toString(last));
    cmd.add(journal.toString());
    cmd.add(Boolean.toString(check));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    return new ChildWriter(p, log);
  }

  /** Waits until {@code condition} holds; fails if the child ends first or the time runs out. */
  void await(BooleanSupplier condition, String what, long timeoutSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (!condition.getAsBoolean()) {
      if (!process.isAlive()) {
        if (condition.getAsBoolean()) return;
        throw new AssertionError("child writer ended (exit " + process.exitValue() + ") before " + what + "; log:\n"
            + tail());
      }
      if (System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new AssertionError("child writer: no " + what + " within " + timeoutSeconds + " s; log:\n" + tail());
      }
      Thread.sleep(10);
    }
  }

  /** SIGKILL: the JVM gets no chance to clean up. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** Waits for a normal end and returns the exit code. */
  int finish(long timeoutSeconds) throws InterruptedException {
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child writer did not finish within " + timeoutSeconds + " s; log:\n" + tail());
    }
    return process.exitValue();
  }

  String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join(File.separator.equals("/") ? "\n" : System.lineSeparator(),
          lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
