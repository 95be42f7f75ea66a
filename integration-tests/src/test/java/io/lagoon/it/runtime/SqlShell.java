package io.lagoon.it.runtime;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * A minimal Spark SQL shell for machines without a Spark install: reads {@code ;}-terminated
 * statements from stdin (or {@code -e}/{@code -f}) and prints each result as a table.
 *
 * <pre>
 * SqlShell [--conf key=value]... [-e "SQL"] [-f file.sql] [-v] [--prompt] [--max-rows N]
 * </pre>
 *
 * Settings come from {@code --conf} arguments and from {@code spark.*} system properties, as with
 * {@code spark-sql}. The master defaults to {@code local[*]}. Only Spark APIs are used here, so the
 * class also runs on a class path of stock Spark jars plus the Lagoon runtime jar. In scripts
 * ({@code -e}, {@code -f}, piped stdin) the first failing statement ends the run with exit code 1;
 * with {@code --prompt} (interactive) errors are printed and the shell carries on.
 */
public final class SqlShell {
  private final SparkSession spark;
  private final PrintStream out;
  private final boolean echo;
  private final int maxRows;

  SqlShell(SparkSession spark, PrintStream out, boolean echo, int maxRows) {
    this.spark = spark;
    this.out = out;
    this.echo = echo;
    this.maxRows = maxRows;
  }

  public static void main(String[] args) throws IOException {
    Map<String, String> conf = new LinkedHashMap<>();
    String inline = null;
    Path file = null;
    boolean echo = false;
    boolean prompt = false;
    int maxRows = 1000;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--conf": {
          String kv = value(args, ++i, a);
          int eq = kv.indexOf('=');
          if (eq <= 0) usage("--conf expects key=value, got '" + kv + "'");
          conf.put(kv.substring(0, eq), kv.substring(eq + 1));
          break;
        }
        case "-e": inline = value(args, ++i, a); break;
        case "-f": file = Path.of(value(args, ++i, a)); break;
        case "-v": echo = true; break;
        case "--prompt": prompt = true; break;
        case "--max-rows": maxRows = Integer.parseInt(value(args, ++i, a)); break;
        case "-h": case "--help": usage(null); break;
        default: usage("unknown argument '" + a + "'");
      }
    }
    quietLogging();
    SparkSession.Builder builder = SparkSession.builder().appName("lagoon-sql");
    if (System.getProperty("spark.master") == null && !conf.containsKey("spark.master")) builder.master("local[*]");
    conf.forEach(builder::config);
    SparkSession spark = builder.getOrCreate();
    int failures;
    try {
      SqlShell shell = new SqlShell(spark, System.out, echo, maxRows);
      if (inline != null) {
        failures = shell.run(new java.io.StringReader(inline), false);
      } else if (file != null) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          failures = shell.run(r, false);
        }
      } else {
        failures = shell.run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), prompt);
      }
    } finally {
      spark.stop();
    }
    System.exit(failures == 0 ? 0 : 1);
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) usage(flag + " needs a value");
    return args[i];
  }

  private static void usage(String error) {
    if (error != null) System.err.println("lagoon-sql: " + error);
    System.err.println("usage: SqlShell [--conf key=value]... [-e \"SQL\"] [-f file.sql] [-v] [--prompt] [--max-rows N]");
    System.exit(error == null ? 0 : 2);
  }

  /**
   * Warnings and errors only, on stderr, unless a log4j2 configuration was given. Installed
   * before Spark starts, so Spark keeps it instead of loading its INFO defaults.
   */
  public static void quietLogging() {
    if (System.getProperty("log4j2.configurationFile") != null) return;
    Level level = Level.toLevel(System.getProperty("lagoon.log.level", "WARN"), Level.WARN);
    ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
    b.setStatusLevel(Level.ERROR);
    b.add(b.newAppender("stderr", "Console")
        .addAttribute("target", ConsoleAppender.Target.SYSTEM_ERR)
        .add(b.newLayout("PatternLayout").addAttribute("pattern", "%d{HH:mm:ss} %p %c{1}: %m%n")));
    b.add(b.newRootLogger(level).add(b.newAppenderRef("stderr")));
    // Harmless on a laptop, alarming in a shell.
    b.add(b.newLogger("org.apache.hadoop.util.NativeCodeLoader", Level.ERROR));
    b.add(b.newLogger("org.apache.spark.util.Utils", Level.ERROR));
    Configurator.initialize(b.build());
  }

  /** Runs every statement of the input; returns the number of statements that failed. */
  int run(Reader in, boolean interactive) throws IOException {
    StatementSplitter splitter = new StatementSplitter();
    int failures = 0;
    if (interactive) prompt(false);
    int c;
    while ((c = in.read()) != -1) {
      String stmt = splitter.accept((char) c);
      if (stmt != null) {
        if (isQuit(stmt)) return failures;
        if (!execute(stmt)) {
          failures++;
          if (!interactive) return failures;
        }
      }
      if (interactive && c == '\n') prompt(!splitter.isEmpty());
    }
    String last = splitter.finish();
    if (last != null && !isQuit(last) && !execute(last)) failures++;
    if (interactive) out.println();
    return failures;
  }

  private void prompt(boolean continuation) {
    out.print(continuation ? "     > " : "lagoon> ");
    out.flush();
  }

  private static boolean isQuit(String stmt) {
    String s = stmt.trim().toLowerCase(Locale.ROOT);
    return s.equals("quit") || s.equals("exit");
  }

  /** Executes one statement and prints its result; false if it failed. */
  boolean execute(String stmt) {
    if (echo) out.println(stmt.trim() + ";");
    long start = System.nanoTime();
    try {
      Dataset<Row> df = spark.sql(stmt);
      if (df.schema().isEmpty()) {
        df.collectAsList();
        out.println("OK");
      } else {
        printTable(df);
      }
      System.err.printf(Locale.ROOT, "Time taken: %.3f seconds%n", (System.nanoTime() - start) / 1e9);
      out.flush();
      return true;
    } catch (Exception e) {
      out.flush();
      String msg = e.getMessage() == null ? e.toString() : e.getMessage();
      System.err.println("Error: " + msg.trim());
      System.err.flush();
      return false;
    }
  }

  /** Renders values the way Spark SQL casts them to strings (dates, timestamps, arrays, maps). */
  private void printTable(Dataset<Row> df) {
    StructField[] fields = df.schema().fields();
    String[] headers = new String[fields.length];
    Column[] asText = new Column[fields.length];
    String[] positional = new String[fields.length];
    for (int i = 0; i < fields.length; i++) {
      headers[i] = fields[i].name();
      positional[i] = "c" + i;
    }
    Dataset<Row> renamed = df.toDF(positional);
    for (int i = 0; i < fields.length; i++) asText[i] = renamed.col(positional[i]).cast("string");
    List<Row> rows = renamed.select(asText).takeAsList(maxRows + 1);
    boolean truncated = rows.size() > maxRows;
    if (truncated) rows = rows.subList(0, maxRows);
    List<String[]> cells = new ArrayList<>();
    int[] width = new int[fields.length];
    for (int i = 0; i < fields.length; i++) width[i] = headers[i].length();
    for (Row r : rows) {
      String[] line = new String[fields.length];
      for (int i = 0; i < fields.length; i++) {
        line[i] = r.isNullAt(i) ? "NULL" : r.getString(i);
        width[i] = Math.max(width[i], line[i].length());
      }
      cells.add(line);
    }
    String rule = rule(width);
    out.println(rule);
    out.println(line(headers, width));
    out.println(rule);
    for (String[] line : cells) out.println(line(line, width));
    out.println(rule);
    out.println(rows.size() + (rows.size() == 1 ? " row" : " rows") + (truncated ? " (first " + maxRows + " shown)" : ""));
  }

  private static String rule(int[] width) {
    StringBuilder sb = new StringBuilder("+");
    for (int w : width) sb.append("-".repeat(w + 2)).append('+');
    return sb.toString();
  }

  private static String line(String[] values, int[] width) {
    StringBuilder sb = new StringBuilder("|");
    for (int i = 0; i < values.length; i++) {
      sb.append(' ').append(values[i]).append(" ".repeat(width[i] - values[i].length())).append(" |");
    }
    return sb.toString();
  }

  /**
   * Cuts a character stream into statements at {@code ;}, ignoring semicolons inside quotes,
   * backticks and comments. Comments are dropped from the statement text.
   */
  static final class StatementSplitter {
    private final StringBuilder current = new StringBuilder();
    private char quote; // ' " ` or 0
    private boolean lineComment;
    private boolean blockComment;
    private boolean blockStar;
    private boolean escaped;

    /** Feeds one character; returns a complete statement when {@code c} ends one. */
    String accept(char c) {
      if (lineComment) {
        if (c == '\n') {
          lineComment = false;
          current.append(c);
        }
        return null;
      }
      if (blockComment) {
        if (c == '/' && blockStar) {
          blockComment = false;
          current.append(' ');
        }
        blockStar = c == '*';
        return null;
      }
      if (quote != 0) {
        current.append(c);
        if (escaped) escaped = false;
        else if (c == '\\' && quote != '`') escaped = true;
        else if (c == quote) quote = 0;
        return null;
      }
      if (c == '-' && endsWith('-')) {
        current.setLength(current.length() - 1);
        lineComment = true;
        return null;
      }
      if (c == '*' && endsWith('/')) {
        current.setLength(current.length() - 1);
        blockComment = true;
        blockStar = false;
        return null;
      }
      if (c == '\'' || c == '"' || c == '`') quote = c;
      if (c == ';') {
        String s = current.toString();
        current.setLength(0);
        return s.isBlank() ? null : s;
      }
      current.append(c);
      return null;
    }

    private boolean endsWith(char c) {
      return current.length() > 0 && current.charAt(current.length() - 1) == c;
    }

    boolean isEmpty() {
      return current.toString().isBlank();
    }

    /** What is left at end of input, if it holds a statement without a closing {@code ;}. */
    String finish() {
      String s = current.toString();
      current.setLength(0);
      return s.isBlank() ? null : s;
    }
  }
}
