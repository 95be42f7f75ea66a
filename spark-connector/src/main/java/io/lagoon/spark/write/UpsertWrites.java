package io.lagoon.spark.write;

/**
 * The write option that marks an INSERT as a MERGE run as an upsert (set by the SQL extensions'
 * rule): the rows must then have distinct keys, as the MERGE it replaces would demand.
 */
public final class UpsertWrites {
  public static final String MERGE_OPTION = "lagoon.merge-as-upsert";

  private UpsertWrites() {}
}
