package io.lagoon.core.catalog;

import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.TableOptions;
import java.util.Map;

/**
 * What an append table's layout must hold to be created or written. Fixed buckets
 * ({@code 'bucket'='N'}) need {@code 'bucket-key'}, the columns hashed to pick a row's bucket, as
 * Paimon requires since 0.9 (without a primary key there is no other key to hash).
 */
public final class AppendTableRules {
  private AppendTableRules() {}

  /** Checks the options of a new append table with the given columns. */
  public static void requireValidBucketing(String table, Map<String, String> options, java.util.List<String> columns) {
    String bucket = options.get(TableOptions.BUCKET);
    int n;
    try {
      n = bucket == null ? -1 : Integer.parseInt(bucket.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Table " + table + ": 'bucket'='" + bucket + "' is not a number");
    }
    if (n == -1) return;
    if (n <= 0) {
      throw new IllegalArgumentException("Table " + table + ": 'bucket'='" + bucket + "' is not valid for a table "
          + "without a primary key; use a positive number of buckets (with 'bucket-key'), or leave it unset (-1)");
    }
    String keys = options.get(TableOptions.BUCKET_KEY);
    if (keys == null || keys.trim().isEmpty()) {
      throw new IllegalArgumentException("Table " + table + " has 'bucket'='" + n + "' without a primary key: a "
          + "fixed-bucket append table needs 'bucket-key' (the columns hashed to pick a row's bucket)");
    }
    for (String k : keys.split(",")) {
      if (!k.trim().isEmpty() && !columns.contains(k.trim())) {
        throw new IllegalArgumentException("Table " + table + ": 'bucket-key' names column '" + k.trim()
            + "', which the table does not have (columns: " + columns + ")");
      }
    }
  }

  /** Checks before a write that a fixed-bucket append table names its bucket key. */
  public static void requireBucketKey(String table, TableSchema schema) {
    String keys = schema.options().get(TableOptions.BUCKET_KEY);
    if (keys == null || keys.trim().isEmpty()) {
      throw new UnsupportedOperationException("Cannot write to " + table + ": it has 'bucket'='"
          + schema.options().get(TableOptions.BUCKET) + "' without a primary key and without 'bucket-key', so no "
          + "column decides a row's bucket");
    }
  }
}
