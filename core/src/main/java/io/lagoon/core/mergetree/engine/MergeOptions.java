package io.lagoon.core.mergetree.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table options that steer merge engines, with Paimon's names, and typed access to them.
 * Options of the form {@code fields.<name>.<suffix>} are read with {@link #fieldOptions(String)}.
 */
public final class MergeOptions {
  public static final String MERGE_ENGINE = "merge-engine";
  public static final String IGNORE_DELETE = "ignore-delete";
  /** Older spellings of {@link #IGNORE_DELETE} that Paimon still honours. */
  public static final List<String> IGNORE_DELETE_FALLBACK_KEYS =
      List.of("first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete");
  public static final String SEQUENCE_FIELD = "sequence.field";
  public static final String SEQUENCE_FIELD_SORT_ORDER = "sequence.field.sort-order";
  public static final String PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE = "partial-update.remove-record-on-delete";
  public static final String PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP =
      "partial-update.remove-record-on-sequence-group";
  public static final String AGGREGATION_REMOVE_RECORD_ON_DELETE = "aggregation.remove-record-on-delete";
  public static final String FIELDS_PREFIX = "fields.";
  public static final String DEFAULT_AGGREGATE_FUNCTION = "fields.default-aggregate-function";
  public static final String SEQUENCE_GROUP_SUFFIX = ".sequence-group";
  public static final String AGGREGATE_FUNCTION_SUFFIX = ".aggregate-function";
  public static final String IGNORE_RETRACT_SUFFIX = ".ignore-retract";
  public static final String LIST_AGG_DELIMITER_SUFFIX = ".list-agg-delimiter";
  public static final String DISTINCT_SUFFIX = ".distinct";

  private final Map<String, String> options;

  public MergeOptions(Map<String, String> options) {
    this.options = options == null ? Map.of() : options;
  }

  public String get(String key) {
    return options.get(key);
  }

  public MergeEngine engine() {
    return MergeEngine.fromOption(options.get(MERGE_ENGINE));
  }

  /** {@code ignore-delete}, falling back to the engine-prefixed spellings older tables carry. */
  public boolean ignoreDelete() {
    if (options.containsKey(IGNORE_DELETE)) {
      return bool(IGNORE_DELETE, false);
    }
    for (String k : IGNORE_DELETE_FALLBACK_KEYS) {
      if (options.containsKey(k)) {
        return bool(k, false);
      }
    }
    return false;
  }

  /** A boolean option; anything but true/false (any case) is an error naming the option. */
  public boolean bool(String key, boolean dflt) {
    String v = options.get(key);
    if (v == null) {
      return dflt;
    }
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (t.equals("true")) {
      return true;
    }
    if (t.equals("false")) {
      return false;
    }
    throw new IllegalArgumentException("Table option '" + key + "' must be 'true' or 'false', got '" + v + "'");
  }

  /**
   * Every option {@code fields.<name>.<suffix>}: the {@code <name>} part (which for sequence groups
   * may itself be a comma list of fields) mapped to the option value, in key order.
   */
  public Map<String, String> fieldOptions(String suffix) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : new TreeMap<>(options).entrySet()) {
      String k = e.getKey();
      if (k.startsWith(FIELDS_PREFIX) && k.endsWith(suffix) && k.length() > FIELDS_PREFIX.length() + suffix.length()) {
        out.put(k.substring(FIELDS_PREFIX.length(), k.length() - suffix.length()), e.getValue());
      }
    }
    return out;
  }

  /** The option key {@code fields.<field><suffix>}. */
  public static String fieldKey(String field, String suffix) {
    return FIELDS_PREFIX + field + suffix;
  }

  /** Splits a comma list, trimming blanks; an empty element is an error naming the option. */
  static List<String> splitList(String key, String value) {
    String[] parts = value.split(",", -1);
    java.util.ArrayList<String> out = new java.util.ArrayList<>();
    for (String p : parts) {
      String t = p.trim();
      if (t.isEmpty()) {
        throw new IllegalArgumentException("Table option '" + key + "'='" + value
            + "' has an empty field name; give a comma-separated list of column names");
      }
      out.add(t);
    }
    return out;
  }
}
