package io.lagoon.it.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime jar ({@code spark-runtime/target/lagoon-spark-runtime-*.jar}) is a drop-in for a
 * stock Spark 3.5: it holds Lagoon and its relocated RoaringBitmap and nothing that Spark already
 * ships, and a Spark session whose class path is Spark's jars plus this one jar (no Lagoon module
 * classes) can create, write and query a table.
 */
class ShadedJarTest {
  /** Packages a Spark 3.5 distribution provides; the runtime jar must not carry them. */
  private static final List<String> PROVIDED = List.of(
      "org/apache/spark/", "scala/", "org/apache/hadoop/", "org/apache/parquet/", "org/apache/avro/",
      "org/apache/orc/", "com/fasterxml/jackson/", "org/slf4j/", "org/apache/logging/", "org/apache/paimon/");

  private static Path jar;

  @BeforeAll
  static void findJar() throws IOException {
    Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    Path target = module.resolveSibling("spark-runtime").resolve("target");
    List<Path> found = new ArrayList<>();
    if (Files.isDirectory(target)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(target, "lagoon-spark-runtime-*.jar")) {
        for (Path p : ds) {
          String n = p.getFileName().toString();
          if (!n.endsWith("-sources.jar") && !n.endsWith("-tests.jar") && !n.endsWith("-javadoc.jar")) found.add(p);
        }
      }
    }
    if (found.size() != 1) {
      fail("Expected one runtime jar in " + target + ", found " + found
          + ": build it first (mvn verify from the repository root, or mvn -pl spark-runtime -am package)");
    }
    jar = found.get(0);
  }

  @Test
  void holdsLagoonAndNothingSparkProvides() throws IOException {
    List<String> offending = new ArrayList<>();
    List<String> foreign = new ArrayList<>();
    boolean catalog = false;
    boolean roaring = false;
    try (JarFile jf = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> en = jf.entries(); en.hasMoreElements(); ) {
        String name = en.nextElement().getName();
        if (name.equals("io/lagoon/spark/LagoonCatalog.class")) catalog = true;
        if (name.equals("io/lagoon/shaded/org/roaringbitmap/RoaringBitmap.class")) roaring = true;
        for (String p : PROVIDED) if (name.startsWith(p)) offending.add(name);
        if (name.startsWith("org/roaringbitmap/")) offending.add(name);
        // Everything is ours (io/lagoon/**, relocated third-party code included) or jar metadata.
        if (!name.startsWith("io/lagoon/") && !name.equals("io/") && !name.startsWith("META-INF/")) foreign.add(name);
      }
    }
    assertTrue(catalog, "io/lagoon/spark/LagoonCatalog.class missing from " + jar);
    assertEquals(List.of(), missingServiceProviders(), "META-INF/services names classes the jar lacks");
    assertTrue(roaring, "RoaringBitmap is not relocated under io/lagoon/shaded/ in " + jar);
    assertEquals(List.of(), offending, "classes Spark already provides must not be shaded in");
    assertEquals(List.of(), foreign, "entries outside io/lagoon/ and META-INF/");
  }

  /** Provider classes listed under META-INF/services that are not in the jar. */
  private static List<String> missingServiceProviders() throws IOException {
    List<String> missing = new ArrayList<>();
    try (JarFile jf = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> en = jf.entries(); en.hasMoreElements(); ) {
        JarEntry e = en.nextElement();
        if (!e.getName().startsWith("META-INF/services/") || e.isDirectory()) continue;
        String text;
        try (InputStream in = jf.getInputStream(e)) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String line : text.split("\\R")) {
          String cls = line.replaceAll("#.*", "").trim();
          if (!cls.isEmpty() && jf.getEntry(cls.replace('.', '/') + ".class") == null) {
            missing.add(e.getName() + ": " + cls);
          }
        }
      }
    }
    return missing;
  }

  /** No class may still point at the unrelocated package (Spark ships an older RoaringBitmap). */
  @Test
  void everyRoaringReferenceIsRelocated() throws IOException {
    byte[] slash = "org/roaringbitmap".getBytes(StandardCharsets.UTF_8);
    byte[] dot = "org.roaringbitmap".getBytes(StandardCharsets.UTF_8);
    byte[] shadedSlash = "io/lagoon/shaded/org/roaringbitmap".getBytes(StandardCharsets.UTF_8);
    byte[] shadedDot = "io.lagoon.shaded.org.roaringbitmap".getBytes(StandardCharsets.UTF_8);
    List<String> bad = new ArrayList<>();
    try (JarFile jf = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> en = jf.entries(); en.hasMoreElements(); ) {
        JarEntry e = en.nextElement();
        if (!e.getName().endsWith(".class")) continue;
        byte[] b;
        try (InputStream in = jf.getInputStream(e)) {
          b = in.readAllBytes();
        }
        int plain = count(b, slash) + count(b, dot);
        int shaded = count(b, shadedSlash) + count(b, shadedDot);
        if (plain != shaded) bad.add(e.getName());
      }
    }
    assertEquals(List.of(), bad, "classes referring to org.roaringbitmap without relocation");
  }

  /**
   * spark-submit in miniature: a fresh JVM with Spark's jars and the runtime jar only, the catalog
   * configured through --conf, SQL through stdin.
   */
  @Test
  void runsSqlOnStockSparkClassPath(@TempDir Path tmp) throws Exception {
    Path shellDir = copyShellClasses(tmp.resolve("shell"));
    List<String> cp = new ArrayList<>();
    for (String entry : testClassPath()) {
      Path p = Path.of(entry);
      if (Files.isRegularFile(p) && p.toString().endsWith(".jar") && !holdsLagoonOrPaimon(p)) cp.add(entry);
    }
    assertTrue(cp.stream().anyMatch(e -> e.contains("spark-sql_")), "Spark jars not found on the test class path");
    cp.add(jar.toString());
    cp.add(shellDir.toString());

    Path warehouse = tmp.resolve("wh");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    cmd.add("-XX:TieredStopAtLevel=1"); // a short-lived JVM: C1 only roughly halves its run time
    cmd.addAll(sparkJvmFlags());
    cmd.add("-cp");
    cmd.add(String.join(File.pathSeparator, cp));
    cmd.add(SqlShell.class.getName());
    for (String conf : List.of(
        "spark.master=local[1]",
        "spark.ui.enabled=false",
        "spark.sql.shuffle.partitions=2",
        "spark.sql.session.timeZone=UTC",
        "spark.sql.catalog.lake=io.lagoon.spark.LagoonCatalog",
        "spark.sql.catalog.lake.warehouse=" + warehouse.toUri(),
        "spark.sql.defaultCatalog=lake")) {
      cmd.add("--conf");
      cmd.add(conf);
    }
    String sql = String.join("\n",
        "CREATE NAMESPACE IF NOT EXISTS db;",
        "CREATE TABLE db.events (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)",
        "  TBLPROPERTIES ('file.format' = 'parquet');",
        "INSERT INTO db.events VALUES (1, 'a', '2024-01-01'), (2, 'b', '2024-01-02');",
        "INSERT INTO lake.db.events VALUES (3, 'c; with semicolon', '2024-01-01');",
        "-- a comment; with a semicolon",
        "SELECT id, name, dt FROM db.events ORDER BY id;",
        "SELECT dt, count(*) AS n FROM db.events WHERE dt = '2024-01-01' GROUP BY dt;",
        "");

    Process proc = new ProcessBuilder(cmd).redirectErrorStream(false).start();
    try (OutputStream in = proc.getOutputStream()) {
      in.write(sql.getBytes(StandardCharsets.UTF_8));
    }
    StreamCollector stdout = new StreamCollector(proc.getInputStream());
    StreamCollector stderr = new StreamCollector(proc.getErrorStream());
    if (!proc.waitFor(180, TimeUnit.SECONDS)) {
      proc.destroyForcibly();
      fail("Spark child JVM did not finish in 180 s; stderr:\n" + stderr.text());
    }
    String out = stdout.text();
    String err = stderr.text();
    assertEquals(0, proc.exitValue(), "child JVM failed\nstdout:\n" + out + "\nstderr:\n" + err);
    assertFalse(err.contains("Error:"), err);
    String expected = String.join("\n",
        "+----+-------------------+------------+",
        "| id | name              | dt         |",
        "+----+-------------------+------------+",
        "| 1  | a                 | 2024-01-01 |",
        "| 2  | b                 | 2024-01-02 |",
        "| 3  | c; with semicolon | 2024-01-01 |",
        "+----+-------------------+------------+",
        "3 rows");
    assertTrue(out.contains(expected), "unexpected output:\n" + out + "\nstderr:\n" + err);
    assertTrue(out.contains("| 2024-01-01 | 2 |"), out);
    Path table = warehouse.resolve("db.db").resolve("events");
    assertTrue(Files.exists(table.resolve("snapshot").resolve("snapshot-2")), "no snapshot-2 under " + table);
    assertTrue(Files.isDirectory(table.resolve("dt=2024-01-01").resolve("bucket-0")));
  }

  /** The shell's compiled classes (the class and its nested classes) in a folder of their own. */
  private static Path copyShellClasses(Path dir) throws IOException {
    Path source;
    try {
      source = Path.of(SqlShell.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    String pkg = SqlShell.class.getPackageName().replace('.', '/');
    Path from = source.resolve(pkg);
    Path to = dir.resolve(pkg);
    Files.createDirectories(to);
    int copied = 0;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(from, SqlShell.class.getSimpleName() + "*.class")) {
      for (Path p : ds) {
        Files.copy(p, to.resolve(p.getFileName()));
        copied++;
      }
    }
    assertTrue(copied > 0, "SqlShell classes not found under " + from);
    return dir;
  }

  private static List<String> testClassPath() {
    String cp = System.getProperty("surefire.test.class.path");
    if (cp == null || cp.isBlank()) cp = System.getProperty("java.class.path");
    assertNotNull(cp);
    return List.of(cp.split(File.pathSeparator));
  }

  private static boolean holdsLagoonOrPaimon(Path jarPath) throws IOException {
    try (JarFile jf = new JarFile(jarPath.toFile())) {
      return jf.stream().anyMatch(e -> e.getName().startsWith("io/lagoon/") || e.getName().startsWith("org/apache/paimon/"));
    }
  }

  /** The --add-opens and friends this JVM got from the build, which Spark needs on Java 17. */
  private static List<String> sparkJvmFlags() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports")
            || a.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || a.startsWith("-Djdk.reflect")
            || a.startsWith("-Dio.netty"))
        .collect(Collectors.toList());
  }

  private static int count(byte[] haystack, byte[] needle) {
    int n = 0;
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
      n++;
    }
    return n;
  }

  /** Drains a child's output on its own thread so the child never blocks on a full pipe. */
  private static final class StreamCollector {
    private final Thread thread;
    private final java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();

    StreamCollector(InputStream in) {
      thread = new Thread(() -> {
        try (in) {
          in.transferTo(buf);
        } catch (IOException ignored) {
          // the child went away; whatever arrived is kept
        }
      }, "child-output");
      thread.setDaemon(true);
      thread.start();
    }

    String text() throws InterruptedException {
      thread.join(10_000);
      synchronized (buf) {
        return buf.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
