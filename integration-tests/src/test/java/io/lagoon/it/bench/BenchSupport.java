package io.lagoon.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Small helpers the benchmarks share: data-file listing, sizes, timing statistics. */
final class BenchSupport {
  private BenchSupport() {}

  static List<Path> dataFiles(Path root) throws IOException {
    if (!Files.exists(root)) return List.of();
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> {
        String n = p.getFileName().toString();
        return (n.endsWith(".parquet") || n.endsWith(".orc")) && !p.toString().contains("/manifest/");
      }).collect(Collectors.toList());
    }
  }

  static double megabytes(List<Path> files) throws IOException {
    long total = 0;
    for (Path p : files) total += Files.size(p);
    return total / (1024.0 * 1024.0);
  }

  static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.0f", nanos / 1e6);
  }

  static long median(long[] values) {
    long[] s = values.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) return;
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) Files.delete(q);
    }
  }

  /** Whether a class is on the class path (Paimon's connector is only there under lagoon-bench). */
  static boolean classExists(String name) {
    try {
      Class.forName(name);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
