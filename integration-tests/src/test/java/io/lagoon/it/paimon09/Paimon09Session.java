package io.lagoon.it.paimon09;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.lagoon.it.oracle.SparkRows;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A local SparkSession with Apache Paimon 0.9's Spark connector as catalog {@code paimon}, and
 * optionally a second catalog {@code lake} (the Lagoon catalog). Only usable in the
 * {@code paimon-0.9} Surefire execution (tests under {@code **}{@code /paimon09/**}), whose class path
 * holds {@code paimon-spark-3.5:0.9.0} instead of {@code paimon-bundle:1.3.1}.
 *
 * <pre>
 * try (Paimon09Session s = Paimon09Session.builder(warehouse)
 *         .lakeCatalogIfPresent(Paimon09Session.LAGOON_CATALOG, warehouse).create()) {
 *     List&lt;String&gt; rows = s.rows("SELECT * FROM paimon.db.t");
 * }
 * </pre>
 *
 * Spark allows one active session per JVM: {@link Builder#create()} stops any existing one first,
 * and {@link #close()} stops this one. Settings: master {@code local[2]}, UI off,
 * {@code spark.sql.shuffle.partitions=4}, session time zone UTC (override with
 * {@link Builder#conf}), {@code spark.sql.warehouse.dir} in a temporary folder.
 */
public final class Paimon09Session implements AutoCloseable {

    public static final String PAIMON_CATALOG = "org.apache.paimon.spark.SparkCatalog";
    public static final String PAIMON_EXTENSIONS = "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions";
    /** The Lagoon catalog class name (may not exist yet: use {@link Builder#lakeCatalogIfPresent}). */
    public static final String LAGOON_CATALOG = "io.lagoon.spark.LagoonCatalog";

    private final SparkSession spark;
    private final boolean hasLake;
    private final Path scratch;

    private Paimon09Session(SparkSession spark, boolean hasLake, Path scratch) {
        this.spark = spark;
        this.hasLake = hasLake;
        this.scratch = scratch;
    }

    /** A session with only the {@code paimon} catalog on {@code paimonWarehouse}. */
    public static Paimon09Session create(Path paimonWarehouse) {
        return builder(paimonWarehouse).create();
    }

    /** A session with {@code paimon} on {@code paimonWarehouse} and {@code lake} = {@code lakeCatalogClass}. */
    public static Paimon09Session create(Path paimonWarehouse, String lakeCatalogClass, Path lakeWarehouse) {
        return builder(paimonWarehouse).lakeCatalog(lakeCatalogClass, lakeWarehouse).create();
    }

    public static Builder builder(Path paimonWarehouse) {
        return new Builder(paimonWarehouse);
    }

    public SparkSession spark() {
        return spark;
    }

    /** Whether catalog {@code lake} was registered. */
    public boolean hasLakeCatalog() {
        return hasLake;
    }

    public Dataset<Row> sql(String sql) {
        return spark.sql(sql);
    }

    /** Runs a query and returns its rows rendered by {@link SparkRows}, sorted. */
    public List<String> rows(String sql) {
        return SparkRows.renderAll(spark.sql(sql));
    }

    @Override
    public void close() {
        try {
            spark.stop();
        } finally {
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
            deleteRecursively(scratch);
        }
    }

    /** Whether a class can be loaded (e.g. {@link #LAGOON_CATALOG}, for JUnit assumptions). */
    public static boolean isClassPresent(String className) {
        try {
            Class.forName(className, false, Paimon09Session.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    public static final class Builder {
        private final Path paimonWarehouse;
        private String lakeCatalogClass;
        private Path lakeWarehouse;
        private final List<String> extraExtensions = new ArrayList<>();
        private final Map<String, String> conf = new LinkedHashMap<>();

        private Builder(Path paimonWarehouse) {
            this.paimonWarehouse = paimonWarehouse;
        }

        /** Registers catalog {@code lake} = {@code className} with option {@code warehouse}. */
        public Builder lakeCatalog(String className, Path warehouse) {
            this.lakeCatalogClass = className;
            this.lakeWarehouse = warehouse;
            return this;
        }

        /** Like {@link #lakeCatalog} but only if the class is on the class path. */
        public Builder lakeCatalogIfPresent(String className, Path warehouse) {
            return isClassPresent(className) ? lakeCatalog(className, warehouse) : this;
        }

        /** Adds a class to {@code spark.sql.extensions} after Paimon's (e.g. Lagoon's extensions). */
        public Builder extension(String className) {
            extraExtensions.add(className);
            return this;
        }

        /** Any other Spark setting (applied last, so it can override the defaults). */
        public Builder conf(String key, String value) {
            conf.put(key, value);
            return this;
        }

        public Paimon09Session create() {
            scala.Option<SparkSession> existing = SparkSession.getDefaultSession();
            if (existing.isDefined()) {
                existing.get().stop();
            }
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();

            Path scratch;
            try {
                scratch = Files.createTempDirectory("paimon09-spark");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<String> extensions = new ArrayList<>();
            extensions.add(PAIMON_EXTENSIONS);
            extensions.addAll(extraExtensions);

            SparkSession.Builder b = SparkSession.builder()
                    .appName("paimon09-interop")
                    .master("local[2]")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.driver.host", "localhost")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toUri().toString())
                    .config("spark.sql.extensions", String.join(",", extensions))
                    .config("spark.sql.catalog.paimon", PAIMON_CATALOG)
                    .config("spark.sql.catalog.paimon.warehouse", uri(paimonWarehouse));
            if (lakeCatalogClass != null) {
                b.config("spark.sql.catalog.lake", lakeCatalogClass)
                        .config("spark.sql.catalog.lake.warehouse", uri(lakeWarehouse));
            }
            conf.forEach(b::config);
            return new Paimon09Session(b.getOrCreate(), lakeCatalogClass != null, scratch);
        }

        private static String uri(Path p) {
            return p.toAbsolutePath().toUri().toString();
        }
    }

    private static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
