package io.lagoon.it.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;

/**
 * The Paimon-written fixture warehouses under test resources {@code fixtures/}:
 * {@link #PAIMON_1_3_1} (Paimon 1.3.1 Java API) and {@link #PAIMON_0_9} (Paimon 0.9 Spark
 * connector), each with database {@code db} and tables {@code append_t}, {@code pk_dv},
 * {@code pk_part}, plus {@code <name>.expected.txt} (see {@link FixtureExpectations}).
 *
 * <p>Tests should work on a copy ({@link #copyWarehouse}): Paimon's Spark catalog, for one, may
 * create a {@code default.db} folder in the warehouse it opens. JDK only (usable in every test JVM).
 */
public final class Fixtures {

    public static final String PAIMON_1_3_1 = "paimon-1.3.1-warehouse";
    public static final String PAIMON_0_9 = "paimon-0.9-warehouse";

    private Fixtures() {}

    /** The fixture folder or file on the test class path ({@code fixtures/<name>}). */
    public static Path resource(String name) {
        URL url = Fixtures.class.getResource("/fixtures/" + name);
        if (url == null) {
            throw new IllegalArgumentException("No test resource fixtures/" + name);
        }
        try {
            return Paths.get(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies the fixture warehouse {@code name} into {@code targetDir/name}; returns the copy. */
    public static Path copyWarehouse(String name, Path targetDir) {
        Path source = resource(name);
        Path target = targetDir.resolve(name);
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path dest = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** The expectations file of a fixture warehouse, parsed. */
    public static java.util.Map<String, FixtureExpectations.Table> expectations(String name) {
        return FixtureExpectations.load(resource(name + ".expected.txt"));
    }
}
