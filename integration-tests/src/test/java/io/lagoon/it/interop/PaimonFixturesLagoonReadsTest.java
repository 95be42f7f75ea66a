package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.FixtureExpectations;
import io.lagoon.it.oracle.Fixtures;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop (b), fixtures: the append table that Paimon 1.3.1 (Java API) and Paimon 0.9 (its Spark
 * connector) wrote into the checked-in fixture warehouses reads through Lagoon's catalog with the
 * rows of the fixture's {@code .expected.txt} and of the Paimon oracle, also with filters on every
 * column (pruned by Paimon's stats bytes). The partitioned primary-key table reads by
 * merge-on-read; the deletion-vector one is refused with a clear error, never read as wrong rows.
 */
@RequiresPaimon131
class PaimonFixturesLagoonReadsTest extends LagoonSparkTest {

    @TempDir
    static Path tmp;

    @BeforeAll
    static void java8Api() {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    }

    private static int copies;

    /** A fresh copy of a fixture warehouse with a Lagoon catalog over it. */
    private record Copy(String catalog, Path warehouse) {
        Path table(String name) {
            return warehouse.resolve("db.db").resolve(name);
        }
    }

    private static Copy lagoonCatalogOnCopy(String fixture) {
        String catalog = "fx" + (++copies);
        Path copy;
        try {
            copy = Fixtures.copyWarehouse(fixture, java.nio.file.Files.createDirectory(tmp.resolve(catalog)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        spark.conf().set("spark.sql.catalog." + catalog, "io.lagoon.spark.LagoonCatalog");
        spark.conf().set("spark.sql.catalog." + catalog + ".warehouse", copy.toUri().toString());
        return new Copy(catalog, copy);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {Fixtures.PAIMON_1_3_1, Fixtures.PAIMON_0_9})
    void appendTableReadsAsExpected(String fixture) {
        Copy copy = lagoonCatalogOnCopy(fixture);
        String catalog = copy.catalog();
        FixtureExpectations.Table expected = Fixtures.expectations(fixture).get("db.append_t");
        String table = catalog + ".db.append_t";
        RowDiff diff = new RowDiff();
        diff.check("Lagoon vs .expected.txt", expected.latestRows(), SparkRows.renderAll(sql("SELECT * FROM " + table)));
        diff.check("Paimon 1.3.1 vs .expected.txt", expected.latestRows(),
                PaimonOracle.readRows(copy.table("append_t")));
        diff.check("Lagoon projection", project(expected.latestRows()),
                SparkRows.renderAll(sql("SELECT name, d, id FROM " + table)));
        SparkScanProbe.checkFilters(spark, table, List.of(
                new InteropData.SqlFilter("id = 3", false),
                new InteropData.SqlFilter("id >= 4", false),
                new InteropData.SqlFilter("big < 1000000000003", false),
                new InteropData.SqlFilter("name = 'bob'", false),
                new InteropData.SqlFilter("name > 'c'", false),
                new InteropData.SqlFilter("name IS NULL", false),
                new InteropData.SqlFilter("score >= 4.5D", false),
                new InteropData.SqlFilter("amount > CAST(50 AS DECIMAL(10,2))", false),
                new InteropData.SqlFilter("amount = CAST(-3.25 AS DECIMAL(10,2))", false),
                new InteropData.SqlFilter("amount IS NULL", false),
                new InteropData.SqlFilter("d = DATE'2024-01-03'", false),
                new InteropData.SqlFilter("d < DATE'2024-01-02'", false),
                new InteropData.SqlFilter("ts <= TIMESTAMP_NTZ'2024-01-02 03:04:08.123456'", false),
                new InteropData.SqlFilter("ts > TIMESTAMP_NTZ'2024-01-02 03:04:09.5'", false),
                new InteropData.SqlFilter("id = 99", false)), diff);
        assertEquals(List.of(), diff.problems());
    }

    /** {@code name, d, id} of canonical rows of the fixture's append table. */
    private static List<String> project(List<String> rows) {
        List<String> out = new java.util.ArrayList<>();
        for (String r : rows) {
            List<String> f = RowDiff.topLevelFields(r);
            out.add(String.join(", ", f.get(2), f.get(5), f.get(0)));
        }
        java.util.Collections.sort(out);
        return out;
    }

    /**
     * Primary-key tables read with the fixture's rows, by merge-on-read, and the deletion-vector
     * table with its vectors applied (0.9 and 1.3.1 vectors); an upsert into the deletion-vector
     * table reads the same in Paimon, and so does an upsert into the dynamic-bucket one.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {Fixtures.PAIMON_1_3_1, Fixtures.PAIMON_0_9})
    void primaryKeyTablesReadWithTheFixturesRows(String fixture) {
        Copy copy = lagoonCatalogOnCopy(fixture);
        String catalog = copy.catalog();
        FixtureExpectations.Table pkPart = Fixtures.expectations(fixture).get("db.pk_part");
        assertEquals(pkPart.latestRows(), SparkRows.renderAll(sql("SELECT * FROM " + catalog + ".db.pk_part")));
        FixtureExpectations.Table pkDv = Fixtures.expectations(fixture).get("db.pk_dv");
        assertEquals(pkDv.latestRows(), SparkRows.renderAll(sql("SELECT * FROM " + catalog + ".db.pk_dv")));
        // Upserting every row of Paimon's dynamic-bucket table again keeps each key in the bucket
        // Paimon's HASH index gives it: the same rows, once each, in both engines.
        String part = catalog + ".db.pk_part";
        sql("INSERT INTO " + part + " SELECT * FROM " + part);
        assertEquals(pkPart.latestRows(), SparkRows.renderAll(sql("SELECT * FROM " + part)));
        assertEquals(pkPart.latestRows(), PaimonOracle.readRows(copy.table("pk_part")));
        // Lagoon upserts into Paimon's deletion-vector table: it looks the keys up in Paimon's
        // levels and marks the old rows, and Paimon reads the result Lagoon reads.
        String dv = catalog + ".db.pk_dv";
        sql("INSERT INTO " + dv + " VALUES (2, 5, 'name2-lagoon', 0.5, 2.50, DATE '2024-02-02', NULL),"
                + " (9, 9, 'name9', 9.5, 9.90, DATE '2024-02-09', TIMESTAMP '2024-02-09 01:02:03')");
        List<String> lagoon = SparkRows.renderAll(sql("SELECT * FROM " + dv));
        assertEquals(pkDv.latestRows().size() + 1, lagoon.size(), lagoon.toString());
        assertTrue(lagoon.stream().anyMatch(r -> r.contains("name2-lagoon")), lagoon.toString());
        assertTrue(lagoon.stream().noneMatch(r -> r.contains("name2-v2")), lagoon.toString());
        assertTrue(lagoon.stream().anyMatch(r -> r.contains("name9")), lagoon.toString());
        assertEquals(lagoon, PaimonOracle.readRows(copy.table("pk_dv")));
    }

}
