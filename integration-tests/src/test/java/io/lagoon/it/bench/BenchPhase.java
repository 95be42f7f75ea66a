package io.lagoon.it.bench;

import java.util.Locale;

/**
 * What one benchmark JVM does. A scheduled job (a compaction, a nightly fix-up) starts in a JVM
 * that wrote nothing before, so its cold figure must not include code the JIT compiled while the
 * same JVM wrote the tables: {@link #PREPARE} writes every run's tables and stops, {@link #TIME}
 * times the statements on them in a fresh JVM. {@link #ALL} does both in one JVM.
 */
enum BenchPhase {
  ALL, PREPARE, TIME;

  static BenchPhase parse(String v) {
    try {
      return valueOf(v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--phase is all, prepare or time, not " + v, e);
    }
  }

  /** Whether this JVM creates and loads the tables (and so starts from an empty directory). */
  boolean writes() {
    return this != TIME;
  }

  /** Whether this JVM times statements (and checks their answers). */
  boolean times() {
    return this != PREPARE;
  }
}
