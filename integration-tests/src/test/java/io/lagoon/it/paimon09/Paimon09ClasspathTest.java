package io.lagoon.it.paimon09;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.lagoon.it.oracle.TestClasspath;
import org.junit.jupiter.api.Test;

/**
 * The {@code paimon-0.9} execution: paimon-spark-3.5 0.9.0 (which already embeds the 0.9 core) and
 * paimon-bundle 0.9.0 instead of paimon-bundle 1.3.1, without their transitive Scala/SLF4J/Spark.
 */
@RequiresPaimon09
class Paimon09ClasspathTest {

    @Test
    void paimon09OnlyAndSparkLoggingIntact() {
        assertEquals(List.of("paimon-bundle-0.9.0.jar"), TestClasspath.jarsNamed("paimon-bundle-"));
        assertEquals(List.of("paimon-spark-3.5-0.9.0.jar"), TestClasspath.jarsNamed("paimon-spark"));
        for (String location : TestClasspath.locations("org/apache/paimon/table/FileStoreTableFactory.class")) {
            assertTrue(location.contains("0.9.0"), location);
        }
        assertTrue(Paimon09Session.isClassPresent(Paimon09Session.PAIMON_CATALOG));
        assertTrue(Paimon09Session.isClassPresent(Paimon09Session.PAIMON_EXTENSIONS));
        assertEquals("2.12.18", TestClasspath.scalaVersion());
        assertEquals(List.of("scala-library-2.12.18.jar"), TestClasspath.jarsNamed("scala-library-"));
        assertTrue(TestClasspath.slf4jIs2(), "slf4j-api 2.x expected, Spark logs through it");
        assertEquals(1, TestClasspath.jarsNamed("slf4j-api-").size(), TestClasspath.jarsNamed("slf4j-api-").toString());
        assertEquals("org.apache.logging.slf4j.Log4jLoggerFactory", TestClasspath.slf4jLoggerFactory());
    }
}
