package io.lagoon.it.oracle;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Facts about the running test class path, for sanity tests of the Surefire executions (Paimon 1.3.1
 * vs Paimon 0.9 class paths, Scala and SLF4J versions). JDK, Scala and SLF4J only.
 */
public final class TestClasspath {

    private TestClasspath() {}

    /** Class path entries of the test JVM (Surefire's {@code surefire.test.class.path} if set). */
    public static List<String> entries() {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path", "");
        }
        return Arrays.asList(cp.split(File.pathSeparator));
    }

    /** Entries whose file name starts with {@code prefix} (e.g. {@code "paimon-bundle-"}). */
    public static List<String> jarsNamed(String prefix) {
        List<String> out = new ArrayList<>();
        for (String e : entries()) {
            if (new File(e).getName().startsWith(prefix)) {
                out.add(new File(e).getName());
            }
        }
        return out;
    }

    /** Every class path location of a resource, e.g. {@code org/apache/paimon/table/Table.class}. */
    public static List<String> locations(String resource) {
        try {
            List<String> out = new ArrayList<>();
            for (URL url : Collections.list(TestClasspath.class.getClassLoader().getResources(resource))) {
                out.add(url.toString());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether Paimon 0.9's Spark connector ({@code org.apache.paimon.spark.SparkCatalog}) is on the
     * class path, i.e. this JVM is the {@code paimon-0.9} Surefire execution.
     */
    public static boolean hasPaimon09Spark() {
        return TestClasspath.class.getClassLoader().getResource("org/apache/paimon/spark/SparkCatalog.class") != null;
    }

    /** The Scala library version on the class path, e.g. {@code 2.12.18}. */
    public static String scalaVersion() {
        return scala.util.Properties.versionNumberString();
    }

    /** Whether the SLF4J API is 2.x (has the {@code SLF4JServiceProvider} SPI). */
    public static boolean slf4jIs2() {
        try {
            Class.forName("org.slf4j.spi.SLF4JServiceProvider", false, TestClasspath.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The bound SLF4J logger factory (a NOP factory means logging goes nowhere). */
    public static String slf4jLoggerFactory() {
        return org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName();
    }
}
