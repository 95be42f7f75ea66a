package io.lagoon.it.dv;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.it.pk.PkMergeEngineSqlTest;
import org.junit.jupiter.api.Test;

/**
 * The merge-engine SQL tests on tables in deletion-vector mode: writes compact every level-0 file
 * up, looking keys up in the levels above and marking superseded rows, and reads take every file
 * with its vector, never merging. The answers must be those plain Spark computes, as without
 * vectors.
 */
class PkDeletionVectorsEngineSqlTest extends PkMergeEngineSqlTest {
  @Override
  protected String common() {
    return super.common() + ", 'deletion-vectors.enabled' = 'true'";
  }

  /** Paimon refuses vectors on first-row tables (no row is ever superseded); so does Lagoon. */
  @Override
  @Test
  protected void firstRowKeepsTheFirstRecord() {
    Exception e = assertThrows(Exception.class, () -> sql("CREATE TABLE lake.pk.first_dv (id INT NOT NULL, v INT, op STRING)"
        + " TBLPROPERTIES (" + common() + ", 'merge-engine' = 'first-row')"));
    assertTrue(e.getMessage().contains("first-row") && e.getMessage().contains("deletion-vectors.enabled"),
        e.getMessage());
  }
}
