package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.lagoon.it.oracle.FixtureExpectations;
import io.lagoon.it.oracle.Fixtures;
import io.lagoon.it.oracle.SparkRows;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paimon 0.9's own Spark connector reads the Paimon 0.9 fixture warehouse as expected. */
@RequiresPaimon09
class Paimon09FixtureTest {

    @TempDir
    static Path tmp;

    private static Paimon09Session session;
    private static Map<String, FixtureExpectations.Table> expected;

    @BeforeAll
    static void start() {
        Path warehouse = Fixtures.copyWarehouse(Fixtures.PAIMON_0_9, tmp);
        Path warehouse131 = Fixtures.copyWarehouse(Fixtures.PAIMON_1_3_1, tmp);
        expected = Fixtures.expectations(Fixtures.PAIMON_0_9);
        session = Paimon09Session.builder(warehouse)
                .conf("spark.sql.catalog.paimon131", Paimon09Session.PAIMON_CATALOG)
                .conf("spark.sql.catalog.paimon131.warehouse", warehouse131.toUri().toString())
                .create();
    }

    @AfterAll
    static void stop() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void latestRowsOfEveryTable() {
        for (FixtureExpectations.Table t : expected.values()) {
            assertEquals(t.latestRows(), session.rows("SELECT * FROM paimon." + t.name()), t.name());
        }
    }

    @Test
    void rowsAtTags() {
        for (FixtureExpectations.Table t : expected.values()) {
            for (FixtureExpectations.Tag tag : t.tags().values()) {
                assertEquals(tag.rows(),
                        session.rows("SELECT * FROM paimon." + t.name() + " VERSION AS OF '" + tag.name() + "'"),
                        t.name() + " @ " + tag.name());
            }
        }
    }

    /** Paimon 0.9 also reads the tables Paimon 1.3.1 wrote (latest and at the tag), same rows. */
    @Test
    void paimon09ReadsPaimon131Fixture() {
        for (FixtureExpectations.Table t : Fixtures.expectations(Fixtures.PAIMON_1_3_1).values()) {
            assertEquals(t.latestRows(), session.rows("SELECT * FROM paimon131." + t.name()), t.name());
            assertEquals(t.tagRows("tag1"),
                    session.rows("SELECT * FROM paimon131." + t.name() + " VERSION AS OF 'tag1'"), t.name() + " @ tag1");
        }
    }

    @Test
    void sparkSchemaOfFixture() {
        StructType schema = session.sql("SELECT * FROM paimon.db.append_t").schema();
        assertEquals(List.of("id", "big", "name", "score", "amount", "d", "ts"),
                SparkRows.columnNames(session.sql("SELECT * FROM paimon.db.append_t")));
        assertEquals(DataTypes.IntegerType, schema.apply("id").dataType());
        assertEquals(DataTypes.createDecimalType(10, 2), schema.apply("amount").dataType());
        assertEquals(DataTypes.DateType, schema.apply("d").dataType());
        // Paimon TIMESTAMP(6) (no time zone) surfaces in Spark 3.5 as TIMESTAMP_NTZ.
        assertEquals(DataTypes.TimestampNTZType, schema.apply("ts").dataType());
    }
}
