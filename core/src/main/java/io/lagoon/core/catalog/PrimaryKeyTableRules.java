package io.lagoon.core.catalog;

import io.lagoon.core.catalog.CatalogException.Kind;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.TableOptions;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a primary-key table must look like for this version to write it: a fixed number of
 * buckets, keys that can be hashed and compared, merge options that fit the schema, and no
 * changelog producer that works at compaction time ({@code lookup}, {@code full-compaction}:
 * Lagoon writes the {@code input} producer's changelog only). Deletion vectors are set
 * when a table is created and never toggled afterwards: files written in one mode read wrongly
 * in the other.
 */
public final class PrimaryKeyTableRules {
  public static final String CHANGELOG_PRODUCER = TableOptions.CHANGELOG_PRODUCER;

  private PrimaryKeyTableRules() {}

  /** Checks a new primary-key table; every refusal names the table and what to change. */
  static void validateCreate(Identifier id, List<DataField> fields, List<String> partitionKeys,
                             List<String> primaryKeys, Map<String, String> options) {
    boolean dynamic = parseBucket(options.get(TableOptions.BUCKET)) == -1;
    for (String p : partitionKeys) {
      // With dynamic buckets a key may leave out partition columns: a cross-partition upsert table,
      // where writing a key into another partition moves it there.
      if (!primaryKeys.contains(p) && !dynamic) {
        throw invalid(id, "partition column '" + p + "' must be part of the primary key ('primary-key'='"
            + String.join(",", primaryKeys) + "') of a table with fixed buckets: a key's rows must all live in one "
            + "bucket; add it, e.g. 'primary-key'='" + String.join(",", primaryKeys) + "," + p + "', or leave "
            + "'bucket' unset for a cross-partition upsert table");
      }
    }
    if (partitionKeys.containsAll(primaryKeys)) {
      throw invalid(id, "the primary key " + primaryKeys + " has only partition columns, so each partition would "
          + "hold a single row; add a column that identifies rows within a partition");
    }
    for (String k : primaryKeys) {
      DataField f = field(fields, k);
      if (!keyable(f.type().root())) {
        throw invalid(id, "primary key column '" + k + "' has type " + f.type() + ", which cannot be a key "
            + "(arrays, maps, multisets and rows cannot)");
      }
    }
    requireWritableBuckets(id, options);
    List<String> bucketKeys = TableProperties.splitList(options.get(TableOptions.BUCKET_KEY));
    Set<String> seen = new HashSet<>();
    for (String b : bucketKeys) {
      if (!seen.add(b)) throw invalid(id, "'" + TableOptions.BUCKET_KEY + "' names column '" + b + "' twice");
      if (!primaryKeys.contains(b) || partitionKeys.contains(b)) {
        throw invalid(id, "'" + TableOptions.BUCKET_KEY + "' column '" + b + "' must be a primary key column that is "
            + "not a partition column " + trimmed(primaryKeys, partitionKeys) + ": a key must always hash to one bucket");
      }
    }
    String rowKind = options.get(TableOptions.ROWKIND_FIELD);
    if (rowKind != null) {
      DataField f = fields.stream().filter(x -> x.name().equals(rowKind)).findFirst().orElseThrow(
          () -> invalid(id, "'" + TableOptions.ROWKIND_FIELD + "'='" + rowKind + "' is not a column of the table"));
      if (f.type().root() != TypeRoot.VARCHAR && f.type().root() != TypeRoot.CHAR) {
        throw invalid(id, "'" + TableOptions.ROWKIND_FIELD + "' column '" + rowKind + "' must be a STRING holding "
            + "+I, -U, +U or -D, not " + f.type());
      }
      if (primaryKeys.contains(rowKind)) {
        throw invalid(id, "'" + TableOptions.ROWKIND_FIELD + "' column '" + rowKind + "' cannot be a primary key column");
      }
    }
    refuseUnwrittenFeatures(id, options);
    validateMergeOptions(id, fields, primaryKeys, options);
  }

  /**
   * Checks an ALTER of a primary-key table's options. Only what the change introduces is refused,
   * so a table another engine created with options Lagoon does not support can still be altered.
   */
  static void validateAlter(Identifier id, TableSchema current, Map<String, String> next) {
    Map<String, String> cur = current.options();
    if (deletionVectors(cur) != deletionVectors(next)) {
      throw invalid(id, "'" + TableOptions.DELETION_VECTORS_ENABLED + "' cannot be changed on an existing "
          + "primary-key table: its files were compacted " + (deletionVectors(cur) ? "with" : "without")
          + " deletion vectors, and reading them the other way returns stale or duplicate keys; create a new table "
          + "with the option you want and copy the rows into it (CREATE TABLE ... TBLPROPERTIES (...) AS SELECT)");
    }
    if (!Objects.equals(cur.get(CHANGELOG_PRODUCER), next.get(CHANGELOG_PRODUCER))) {
      refuseUnwrittenFeatures(id, Map.of(CHANGELOG_PRODUCER, nonNull(next.get(CHANGELOG_PRODUCER))));
    }
    if (mergeOptionsValid(current.fields(), current.primaryKeys(), cur)) {
      validateMergeOptions(id, current.fields(), current.primaryKeys(), next);
    }
  }

  /**
   * Refuses writing to a primary-key table this version cannot write correctly. The message says
   * "primary-key table" and names the table so the user knows which one and why.
   */
  public static void requireWritable(String table, TableSchema schema) {
    Map<String, String> options = schema.options();
    String bucket = options.get(TableOptions.BUCKET);
    int n = parseBucket(bucket);
    if (n <= 0 && n != -1 && n != -2) {
      throw new UnsupportedOperationException("Cannot write to primary-key table " + table + ": its 'bucket'="
          + "'" + bucket + "' is " + bucketMode(n)
          + ", which this Lagoon version does not write; fixed ('bucket'='N'), dynamic ('bucket'='-1') and postponed "
          + "('bucket'='-2') buckets can be written");
    }
    String producer = changelogProducer(options);
    if (!writtenProducer(producer)) {
      throw new UnsupportedOperationException("Cannot write to primary-key table " + table + ": it has '"
          + CHANGELOG_PRODUCER + "'='" + producer + "', whose changelog is produced by compaction, which Lagoon "
          + "does not do; a write would leave streaming readers missing its changes (Lagoon writes the changelog of "
          + "'" + CHANGELOG_PRODUCER + "'='input' tables)");
    }
  }

  /**
   * Refuses compacting a primary-key table whose changelog its compactions produce
   * ({@code lookup}, {@code full-compaction}): Lagoon's compaction writes none, so streaming
   * readers would miss the changes it merges.
   */
  public static void requireCompactable(String table, TableSchema schema) {
    String producer = changelogProducer(schema.options());
    if (!writtenProducer(producer)) {
      throw new UnsupportedOperationException("Cannot compact primary-key table " + table + ": it has '"
          + CHANGELOG_PRODUCER + "'='" + producer + "', whose compactions must produce the changelog, which "
          + "Lagoon's compaction does not; compact it with Paimon");
    }
  }

  /** Producers whose changelog Lagoon's writes leave complete: none, or the input records. */
  private static boolean writtenProducer(String producer) {
    return producer.equals("none") || producer.equals("input");
  }

  /** Fixed buckets, or dynamic ones ({@code 'bucket'} unset or -1) without a bucket key. */
  private static void requireWritableBuckets(Identifier id, Map<String, String> options) {
    String bucket = options.get(TableOptions.BUCKET);
    int n = parseBucket(bucket);
    if (n > 0) return;
    if (n == -2) {
      try {
        new TableOptions(options).postponeDefaultBucketNum();
      } catch (IllegalArgumentException e) {
        throw invalid(id, e.getMessage());
      }
      return;
    }
    if (n == -1) {
      TableOptions o = new TableOptions(options);
      try {
        o.dynamicBucketTargetRowNum();
        o.dynamicBucketMaxBuckets();
        o.dynamicBucketAssigners(TableOptions.DYNAMIC_BUCKET_INITIAL_BUCKETS);
        o.dynamicBucketAssigners(TableOptions.DYNAMIC_BUCKET_ASSIGNER_PARALLELISM);
      } catch (IllegalArgumentException e) {
        throw invalid(id, e.getMessage());
      }
      if (options.get(TableOptions.BUCKET_KEY) != null) {
        throw invalid(id, "'" + TableOptions.BUCKET_KEY + "' needs a fixed number of buckets, but the table has "
            + "dynamic buckets ('bucket' unset or -1): set 'bucket'='N' or drop '" + TableOptions.BUCKET_KEY + "'");
      }
      return;
    }
    throw invalid(id, "primary-key tables need fixed, dynamic or postponed buckets: 'bucket'='" + bucket + "' is "
        + bucketMode(n) + ", which is not supported; set 'bucket'='N' (N > 0, e.g. 'bucket'='4'), leave it unset "
        + "for dynamic buckets, or set 'bucket'='-2' for postponed ones");
  }

  private static String bucketMode(int n) {
    if (n == -1) return "dynamic-bucket mode";
    if (n == -2) return "postponed-bucket mode";
    return "not a positive number of buckets";
  }

  private static int parseBucket(String bucket) {
    if (bucket == null) return -1;
    try {
      return Integer.parseInt(bucket.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static boolean deletionVectors(Map<String, String> options) {
    String dv = options.get(TableOptions.DELETION_VECTORS_ENABLED);
    return dv != null && Boolean.parseBoolean(dv.trim());
  }

  private static void refuseUnwrittenFeatures(Identifier id, Map<String, String> options) {
    String engine = options.get(io.lagoon.core.mergetree.engine.MergeOptions.MERGE_ENGINE);
    if (deletionVectors(options) && engine != null && engine.trim().equalsIgnoreCase("first-row")) {
      throw invalid(id, "'" + TableOptions.DELETION_VECTORS_ENABLED + "'='true' does not apply to the first-row "
          + "merge engine: it keeps each key's first row, so no stored row is ever superseded (Paimon refuses this "
          + "combination too); leave 'deletion-vectors.enabled' unset");
    }
    String producer = changelogProducer(options);
    if (!writtenProducer(producer)) {
      throw invalid(id, "'" + CHANGELOG_PRODUCER + "'='" + producer + "' is not supported: its changelog is "
          + "produced by compaction, which Lagoon does not do; use 'input' (the written records are the changelog) "
          + "or leave it unset (or 'none')");
    }
  }

  private static String changelogProducer(Map<String, String> options) {
    return new TableOptions(options).changelogProducer();
  }

  private static void validateMergeOptions(Identifier id, List<DataField> fields, List<String> primaryKeys,
                                           Map<String, String> options) {
    try {
      MergeFunctions.validate(options, fields, primaryKeys);
    } catch (IllegalArgumentException e) {
      throw invalid(id, e.getMessage());
    }
  }

  private static boolean mergeOptionsValid(List<DataField> fields, List<String> primaryKeys, Map<String, String> o) {
    try {
      MergeFunctions.validate(o, fields, primaryKeys);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Keys are hashed to buckets and compared while merging: nested types can be neither. */
  private static boolean keyable(TypeRoot root) {
    return !root.isNested();
  }

  private static List<String> trimmed(List<String> primaryKeys, List<String> partitionKeys) {
    List<String> out = new ArrayList<>(primaryKeys);
    out.removeAll(partitionKeys);
    return out;
  }

  private static DataField field(List<DataField> fields, String name) {
    for (DataField f : fields) if (f.name().equals(name)) return f;
    throw new IllegalStateException("no column " + name);
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }

  private static CatalogException invalid(Identifier id, String why) {
    return new CatalogException(Kind.INVALID, "Primary-key table " + id + ": " + why);
  }
}
