package io.lagoon.core.catalog;

import io.lagoon.core.catalog.CatalogException.Kind;
import io.lagoon.core.table.TableOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The properties of a CREATE TABLE sorted into the places of a Paimon schema file: the comment,
 * the primary and partition keys, and the table options. What the query engine says about the
 * table for its own bookkeeping (owner, provider) is not stored.
 */
public final class TableProperties {
  public static final String COMMENT = "comment";
  public static final String PROVIDER = "provider";
  public static final String LOCATION = "location";
  /** Engine bookkeeping: never a table option. */
  static final Set<String> NOT_OPTIONS = Set.of(COMMENT, PROVIDER, LOCATION, "owner", "external",
      "is_managed_location", "path");
  /** Spark passes {@code OPTIONS (k = v)} as {@code option.k}; for a Paimon table both mean a table option. */
  private static final String OPTION_PREFIX = "option.";
  /** Providers naming this table format; anything else (csv, delta, ...) is another format. */
  private static final Set<String> PROVIDERS = Set.of("paimon", "lagoon");

  private final Map<String, String> options;
  private final List<String> primaryKeys;
  private final List<String> partitionKeys;
  private final String comment;

  private TableProperties(Map<String, String> options, List<String> primaryKeys, List<String> partitionKeys,
                          String comment) {
    this.options = Collections.unmodifiableMap(options);
    this.primaryKeys = List.copyOf(primaryKeys);
    this.partitionKeys = List.copyOf(partitionKeys);
    this.comment = comment;
  }

  /** Sorts the properties of CREATE TABLE {@code id}; refuses another provider or an explicit location. */
  public static TableProperties of(Identifier id, Map<String, String> properties) {
    String provider = properties.get(PROVIDER);
    if (provider != null && !PROVIDERS.contains(provider.toLowerCase(Locale.ROOT))) {
      throw new CatalogException(Kind.INVALID, "Table " + id + " cannot use provider '" + provider
          + "': tables of this catalog are Paimon tables (USING paimon, or no USING clause)");
    }
    if (properties.containsKey(LOCATION)) {
      throw new CatalogException(Kind.INVALID, "Table " + id + " cannot have a LOCATION ('"
          + properties.get(LOCATION) + "'): tables live in the catalog's warehouse, at <database>.db/<table>");
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : properties.entrySet()) {
      String key = e.getKey().startsWith(OPTION_PREFIX) ? e.getKey().substring(OPTION_PREFIX.length()) : e.getKey();
      if (!NOT_OPTIONS.contains(key)) options.put(key, e.getValue());
    }
    List<String> primaryKeys = splitList(options.remove(TableOptions.PRIMARY_KEY));
    List<String> partitionKeys = splitList(options.remove(TableOptions.PARTITION));
    return new TableProperties(options, primaryKeys, partitionKeys, properties.get(COMMENT));
  }

  /** Table options as stored in the schema file. */
  public Map<String, String> options() { return options; }
  /** The {@code primary-key} property, split. */
  public List<String> primaryKeys() { return primaryKeys; }
  /** The {@code partition} property, split: an alternative to PARTITIONED BY. */
  public List<String> partitionKeys() { return partitionKeys; }
  public String comment() { return comment; }

  static List<String> splitList(String s) {
    List<String> out = new ArrayList<>();
    if (s == null) return out;
    for (String p : s.split(",")) if (!p.trim().isEmpty()) out.add(p.trim());
    return out;
  }
}
