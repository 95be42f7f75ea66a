package io.lagoon.it.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;

/**
 * Every file and folder under a warehouse with its size and modification time: a refused
 * statement must leave this listing exactly as it was.
 */
public final class WarehouseListing {
  private WarehouseListing() {}

  public static List<String> of(Path root) {
    if (!Files.exists(root)) return List.of();
    try (Stream<Path> s = Files.walk(root)) {
      return s.map(p -> describe(root, p)).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String describe(Path root, Path p) {
    try {
      String kind = Files.isDirectory(p) ? "d" : "f " + Files.size(p) + " " + Files.getLastModifiedTime(p).toMillis();
      return root.relativize(p) + " " + kind;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Runs a statement that must be refused: it throws, the messages of the exception chain mention
   * every expected fragment (case-insensitive), and nothing under {@code root} changed.
   */
  public static Throwable assertRefusedUnchanged(Path root, Executable statement, String... expectedInMessage) {
    List<String> before = of(root);
    Throwable t = assertThrows(Throwable.class, statement);
    String messages = messages(t).toLowerCase(Locale.ROOT);
    for (String fragment : expectedInMessage) {
      assertTrue(messages.contains(fragment.toLowerCase(Locale.ROOT)),
          "error should mention '" + fragment + "' but was: " + messages(t));
    }
    assertEquals(before, of(root), "a refused statement must not change the warehouse");
    return t;
  }

  /** The messages of an exception and all its causes, one per line. */
  public static String messages(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append('\n');
    }
    return sb.toString();
  }
}
