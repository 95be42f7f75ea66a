package io.lagoon.core.data;

/**
 * Converts between Spark's timestamp value (epoch microseconds) and Paimon's timestamp parts
 * (epoch milliseconds plus nanoseconds within that millisecond, always in [0, 999_999]).
 */
public final class PaimonTimestamps {
  private PaimonTimestamps() {}

  public static long millis(long micros) {
    return Math.floorDiv(micros, 1000L);
  }

  public static int nanoOfMilli(long micros) {
    return (int) Math.floorMod(micros, 1000L) * 1000;
  }

  /** Micros from millis and nano-of-milli; nanoseconds below a microsecond are dropped. */
  public static long micros(long millis, int nanoOfMilli) {
    return Math.addExact(Math.multiplyExact(millis, 1000L), nanoOfMilli / 1000);
  }
}
