package io.lagoon.it.pk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.lagoon.core.fs.FileIO;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import org.apache.spark.sql.SparkSession;

/**
 * Test-side view of an unpartitioned primary-key table's files through Lagoon's core API: the
 * table, the live entries of a snapshot, every data file any snapshot references, and the data
 * files actually present in the bucket folders.
 */
public final class PkTableFiles {
    private PkTableFiles() {}

    public static FileStoreTable load(SparkSession spark, java.nio.file.Path dir, String name) {
        try {
            return FileStoreTable.load(new FileIO(spark.sparkContext().hadoopConfiguration()),
                    new org.apache.hadoop.fs.Path(dir.toUri().toString()), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Collection<ManifestEntry> live(FileStoreTable table, Snapshot s) {
        try {
            return io.lagoon.core.scan.LiveFiles.read(table.manifests(), s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Collection<ManifestEntry> liveLatest(FileStoreTable table) {
        try {
            return live(table, table.snapshots().latest().orElseThrow());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "bucket-N/file" of an unpartitioned table's entry. */
    static String name(ManifestEntry e) {
        return "bucket-" + e.bucket + "/" + e.file.fileName;
    }

    /** Data files (as {@link #name}) live in at least one snapshot of the table. */
    public static Set<String> referencedByAnySnapshot(FileStoreTable table) {
        Set<String> out = new TreeSet<>();
        try {
            for (long id : table.snapshots().listIds()) {
                for (ManifestEntry e : live(table, table.snapshots().snapshot(id))) out.add(name(e));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Files (as {@link #name}) in the table's bucket folders, hidden files (checksums) aside. */
    public static Set<String> onDisk(java.nio.file.Path dir) {
        Set<String> out = new TreeSet<>();
        try (Stream<java.nio.file.Path> buckets = Files.list(dir)) {
            for (java.nio.file.Path b : (Iterable<java.nio.file.Path>) buckets::iterator) {
                if (!b.getFileName().toString().startsWith("bucket-")) continue;
                try (Stream<java.nio.file.Path> files = Files.list(b)) {
                    files.map(f -> f.getFileName().toString()).filter(f -> !f.startsWith("."))
                            .forEach(f -> out.add(b.getFileName() + "/" + f));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
