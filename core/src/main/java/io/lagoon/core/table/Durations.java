package io.lagoon.core.table;

import java.time.Duration;
import java.util.Locale;

/**
 * Parses durations the way Paimon's options and procedures spell them: a number and a unit,
 * {@code '1 h'}, {@code '30 min'}, {@code '10s'}, {@code '100ms'}, {@code '7 d'}; a bare number is
 * milliseconds.
 */
public final class Durations {
  private Durations() {}

  /** @param what names the option or argument in the error, e.g. "Table option 'snapshot.time-retained'" */
  public static Duration parse(String text, String what) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    int i = 0;
    while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
    if (i == 0 || i > 18) throw bad(text, what);
    long n = Long.parseLong(s.substring(0, i));
    String unit = s.substring(i).trim();
    switch (unit) {
      case "": case "ms": case "milli": case "millis": case "millisecond": case "milliseconds":
        return Duration.ofMillis(n);
      case "s": case "sec": case "secs": case "second": case "seconds":
        return Duration.ofSeconds(n);
      case "m": case "min": case "mins": case "minute": case "minutes":
        return Duration.ofMinutes(n);
      case "h": case "hour": case "hours":
        return Duration.ofHours(n);
      case "d": case "day": case "days":
        return Duration.ofDays(n);
      default:
        throw bad(text, what);
    }
  }

  private static IllegalArgumentException bad(String text, String what) {
    return new IllegalArgumentException(what + " has an invalid duration '" + text
        + "' (expected a number and a unit: ms, s, min, h or d, e.g. '1 h' or '30 min')");
  }
}
