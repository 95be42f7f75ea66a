package io.lagoon.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The default test execution: Paimon 1.3.1 only, Spark's own Scala and SLF4J 2 with log4j. */
@RequiresPaimon131
class TestClasspathTest {

    @Test
    void paimon131OnlyAndSparkLoggingIntact() {
        assertEquals(java.util.List.of("paimon-bundle-1.3.1.jar"), TestClasspath.jarsNamed("paimon-bundle-"));
        assertEquals(java.util.List.of(), TestClasspath.jarsNamed("paimon-spark"));
        assertEquals(1, TestClasspath.locations("org/apache/paimon/table/FileStoreTableFactory.class").size());
        assertEquals("2.12.18", TestClasspath.scalaVersion());
        assertTrue(TestClasspath.slf4jIs2(), "slf4j-api 2.x expected, Spark logs through it");
        assertEquals("org.apache.logging.slf4j.Log4jLoggerFactory", TestClasspath.slf4jLoggerFactory());
    }
}
