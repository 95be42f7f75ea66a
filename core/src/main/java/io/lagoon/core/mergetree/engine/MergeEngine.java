package io.lagoon.core.mergetree.engine;

import java.util.Locale;

/** The values of the {@code merge-engine} table option, with Paimon's spelling. */
public enum MergeEngine {
  DEDUPLICATE("deduplicate"),
  PARTIAL_UPDATE("partial-update"),
  AGGREGATION("aggregation"),
  FIRST_ROW("first-row");

  private final String optionValue;

  MergeEngine(String optionValue) {
    this.optionValue = optionValue;
  }

  /** The value as written in table options, e.g. {@code partial-update}. */
  public String optionValue() {
    return optionValue;
  }

  /** Parses an option value (case-insensitive); null means the default, {@code deduplicate}. */
  public static MergeEngine fromOption(String value) {
    if (value == null) {
      return DEDUPLICATE;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    for (MergeEngine e : values()) {
      if (e.optionValue.equals(v)) {
        return e;
      }
    }
    throw new IllegalArgumentException("Unsupported table option '" + MergeOptions.MERGE_ENGINE + "'='" + value
        + "': use one of deduplicate (default), partial-update, aggregation, first-row");
  }

  @Override
  public String toString() {
    return optionValue;
  }
}
