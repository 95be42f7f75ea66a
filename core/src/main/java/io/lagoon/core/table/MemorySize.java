package io.lagoon.core.table;

import java.util.Locale;

/** Parses sizes the way Paimon's options spell them: {@code 128 mb}, {@code 256kb}, {@code 1024}. */
public final class MemorySize {
  private MemorySize() {}

  public static long parse(String text, String option) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    int i = 0;
    while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
    if (i == 0) throw bad(text, option);
    long n = Long.parseLong(s.substring(0, i));
    String unit = s.substring(i).trim();
    long mult;
    switch (unit) {
      case "": case "b": case "bytes": mult = 1; break;
      case "k": case "kb": case "kibibytes": mult = 1L << 10; break;
      case "m": case "mb": case "mebibytes": mult = 1L << 20; break;
      case "g": case "gb": case "gibibytes": mult = 1L << 30; break;
      case "t": case "tb": case "tebibytes": mult = 1L << 40; break;
      default: throw bad(text, option);
    }
    return n * mult;
  }

  private static IllegalArgumentException bad(String text, String option) {
    return new IllegalArgumentException("Option '" + option + "' has an invalid size '" + text
        + "' (expected e.g. '128 mb', '64kb' or a number of bytes)");
  }
}
