package io.lagoon.it.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.it.oracle.PaimonOracle;
import io.lagoon.it.oracle.RequiresPaimon131;
import io.lagoon.it.oracle.SparkRows;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.predicate.PredicateBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins how a short value in a CHAR(n) column crosses over. Spark pads it to n before Lagoon
 * writes it, so {@code 'ab  '} is stored, its stats bound it, and Lagoon returns it. Paimon 1.3.1
 * returns the stored value from Parquet, but from ORC it returns {@code 'ab'}: Paimon's ORC reader
 * trims CHAR values (the padded values of its own ORC files too), while the stats hold the
 * padded value, so a Paimon filter on a short CHAR value finds nothing in ORC, on Lagoon's files
 * exactly as on Paimon's own. VARCHAR is never padded.
 */
@RequiresPaimon131
class CharPaddingTest extends LagoonSparkTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parquet", "orc"})
    void shortCharValues(String format) {
        String db = "chr_" + format;
        sql("CREATE NAMESPACE lake." + db);
        sql("CREATE TABLE lake." + db + ".t (id INT, c CHAR(4), v VARCHAR(4)) TBLPROPERTIES ('file.format'='"
                + format + "')");
        sql("INSERT INTO lake." + db + ".t VALUES (1, 'ab', 'ab'), (2, 'abcd', 'abcd'), (3, NULL, NULL)");
        Path dir = warehouse.resolve(db + ".db").resolve("t");

        assertEquals(List.of("id=1, c=ab  , v=ab", "id=2, c=abcd, v=abcd", "id=3, c=null, v=null"),
                SparkRows.renderAll(sql("SELECT * FROM lake." + db + ".t")));
        String paimonShort = format.equals("orc") ? "ab" : "ab  ";
        assertEquals(List.of("id=1, c=" + paimonShort + ", v=ab", "id=2, c=abcd, v=abcd", "id=3, c=null, v=null"),
                PaimonOracle.readRows(dir));
        PredicateBuilder pb = new PredicateBuilder(PaimonOracle.openTable(dir).rowType());
        if (format.equals("parquet")) {
            assertEquals(List.of("id=1, c=ab  , v=ab"),
                    PaimonTables.filteredRead(dir, pb.equal(1, BinaryString.fromString("ab  "))).rows());
        } else {
            // Paimon's ORC reader trims, its stats hold the padded value: a filter on either form
            // finds nothing, on Paimon's own ORC file just the same.
            Path own = PaimonOracle.createTable(warehouse, db, "paimon_own",
                    org.apache.paimon.schema.Schema.newBuilder().column("id", org.apache.paimon.types.DataTypes.INT())
                            .column("c", org.apache.paimon.types.DataTypes.CHAR(4))
                            .column("v", org.apache.paimon.types.DataTypes.VARCHAR(4))
                            .option("file.format", "orc").build());
            PaimonOracle.writeRows(own, List.of(PaimonOracle.row(1, "ab  ", "ab")));
            for (Path t : List.of(dir, own)) {
                assertEquals(List.of(), PaimonTables.filteredRead(t, pb.equal(1, BinaryString.fromString("ab"))).rows());
                assertEquals(List.of(), PaimonTables.filteredRead(t, pb.equal(1, BinaryString.fromString("ab  "))).rows());
            }
            assertEquals(List.of("id=1, c=ab, v=ab"), PaimonOracle.readRows(own));
        }
        assertEquals(List.of("id=2, c=abcd, v=abcd"),
                PaimonTables.filteredRead(dir, pb.equal(1, BinaryString.fromString("abcd"))).rows());
        assertEquals(List.of("id=1, c=" + paimonShort + ", v=ab"),
                PaimonTables.filteredRead(dir, pb.equal(2, BinaryString.fromString("ab"))).rows());
        if (format.equals("parquet")) {
            assertEquals(List.of(), PaimonTables.statsProblems(dir));
        }
        // Spark compares CHAR values padded.
        assertEquals(List.of("id=1, c=ab  , v=ab"),
                SparkRows.renderAll(sql("SELECT * FROM lake." + db + ".t WHERE c = 'ab'")));
    }
}
