package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.compact.TableCompaction;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import org.junit.jupiter.api.Test;

/**
 * A full compaction (the core API the {@code compact} procedure uses) racing two threads of SQL
 * upserts into the same two-bucket table, whose trigger of two sorted runs makes nearly every
 * write compact too, so write-triggered compactions race each other and the full one. The two
 * writers own disjoint keys (their records' order is then defined) plus a few shared keys that
 * either may win. After every round: the table is exactly the last write per key, deleted keys stay
 * deleted, every live file exists, and no data file is left that no snapshot references (a
 * compaction that lost its race deletes what it wrote). A lost race may only surface as a
 * {@link CommitConflictException}.
 */
class PkCompactionRaceTest extends LagoonSparkTest {
    private static final String T = "lake.pkrace.t";
    private static final int KEYS_PER_WRITER = 30;
    private static final int[] SHARED = {900, 901, 902};

    @Test
    void fullCompactionRacingUpsertsLosesNothing() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pkrace");
        sql("CREATE TABLE " + T + " (id INT NOT NULL, v STRING, op STRING) TBLPROPERTIES ("
                + "'primary-key' = 'id', 'bucket' = '2', 'num-sorted-run.compaction-trigger' = '2',"
                + " 'rowkind.field' = 'op')");
        Path dir = warehouse.resolve("pkrace.db").resolve("t");

        // Writer w owns ids w*1000 + [0, KEYS_PER_WRITER).
        Map<Integer, String> expected = new TreeMap<>();
        List<String> seed = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            for (int k = 0; k < KEYS_PER_WRITER; k++) {
                int id = w * 1000 + k;
                seed.add("(" + id + ", 'seed', '+I')");
                expected.put(id, "seed");
            }
        }
        sql("INSERT INTO " + T + " VALUES " + String.join(", ", seed));

        FileStoreTable table = PkTableFiles.load(spark, dir, "pkrace.t");
        KeyValueSource source = KeyValueFileReader.build(spark, table, null);
        Set<Integer> everDeleted = new TreeSet<>();
        int committedFull = 0;
        int conflicts = 0;
        for (int round = 0; round < 3; round++) {
            Map<Integer, String>[] lastOf = newMaps();
            List<List<String>> inserts0 = plan(0, round, lastOf[0]);
            List<List<String>> inserts1 = plan(1, round, lastOf[1]);

            List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger fulls = new AtomicInteger();
            AtomicInteger lost = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            Thread w0 = writer(start, inserts0, errors);
            Thread w1 = writer(start, inserts1, errors);
            Thread compactor = new Thread(() -> {
                try {
                    start.await();
                    // Keep compacting while the writers commit, so compactions land between their snapshots.
                    for (int i = 0; i < 40 && (i < 2 || w0.isAlive() || w1.isAlive()); i++) {
                        try {
                            if (TableCompaction.full(PkTableFiles.load(spark, dir, "pkrace.t"), source, null).isPresent()) {
                                fulls.incrementAndGet();
                            }
                        } catch (CommitConflictException e) {
                            lost.incrementAndGet(); // acceptable: it changed nothing
                        }
                        Thread.sleep(150);
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "full-compaction");
            w0.start();
            w1.start();
            compactor.start();
            start.countDown();
            for (Thread th : List.of(w0, w1, compactor)) {
                th.join(TimeUnit.MINUTES.toMillis(2));
                assertTrue(!th.isAlive(), th.getName() + " finished");
            }
            if (!errors.isEmpty()) {
                AssertionError e = new AssertionError("round " + round + ": a writer or the compaction failed: " + errors);
                errors.forEach(e::addSuppressed);
                throw e;
            }
            committedFull += fulls.get();
            conflicts += lost.get();

            // Expected: each writer's own keys take its last write; shared keys either writer's last.
            for (int w = 0; w < 2; w++) {
                for (Map.Entry<Integer, String> e : lastOf[w].entrySet()) {
                    if (isShared(e.getKey())) continue;
                    if (e.getValue() == null) {
                        expected.remove(e.getKey());
                        everDeleted.add(e.getKey());
                    } else {
                        expected.put(e.getKey(), e.getValue());
                    }
                }
            }
            Map<Integer, String> actual = new TreeMap<>();
            for (String r : rows("SELECT id, v FROM " + T)) {
                String[] p = r.split(",", 2);
                actual.put(Integer.parseInt(p[0]), p[1]);
            }
            for (int id : SHARED) {
                String got = actual.remove(id);
                String a = lastOf[0].get(id);
                String b = lastOf[1].get(id);
                assertTrue(got != null && (got.equals(a) || got.equals(b)),
                        "round " + round + ": shared key " + id + " holds one writer's last value (" + a + " or " + b
                                + "), got " + got);
                // The next round's expectation for a shared key is whatever won.
                expected.put(id, got);
            }
            Map<Integer, String> expectedOwn = new TreeMap<>(expected);
            for (int id : SHARED) expectedOwn.remove(id);
            assertEquals(expectedOwn, actual, "round " + round + " (full compactions committed so far "
                    + committedFull + ", conflicts " + conflicts + ")");
            for (int id : everDeleted) {
                if (!expected.containsKey(id)) assertTrue(!actual.containsKey(id), "deleted key " + id + " resurrected");
            }
            assertFiles(dir, round);
        }

        // A last full compaction with nothing racing it must commit and change nothing.
        FileStoreTable last = PkTableFiles.load(spark, dir, "pkrace.t");
        List<String> before = rows("SELECT id, v FROM " + T);
        TableCompaction.full(last, source, null);
        assertEquals(before, rows("SELECT id, v FROM " + T), "a quiet full compaction changes no row");
        for (ManifestEntry e : PkTableFiles.liveLatest(last)) {
            assertTrue(e.file.level > 0, "after a full compaction no file stays on level 0: " + PkTableFiles.name(e));
        }
        assertFiles(dir, 99);
        System.out.println("PkCompactionRaceTest: full compactions committed " + committedFull + ", lost to a race "
                + conflicts + ", snapshots " + last.snapshots().listIds().size());
        // The race must have been real: some full compactions landed between the writers' commits.
        assertTrue(committedFull + conflicts > 0, "full compactions ran: committed " + committedFull + ", lost " + conflicts);
    }

    private static boolean isShared(int id) {
        for (int s : SHARED) if (s == id) return true;
        return false;
    }

    @SuppressWarnings("unchecked")
    private static Map<Integer, String>[] newMaps() {
        return new Map[] {new HashMap<Integer, String>(), new HashMap<Integer, String>()};
    }

    /**
     * Four INSERTs of writer w: upserts of its own keys, deletes (null in lastOf) and re-inserts,
     * and upserts of the shared keys. One record per key and INSERT.
     */
    private static List<List<String>> plan(int w, int round, Map<Integer, String> lastOf) {
        java.util.Random rnd = new java.util.Random(31L * round + w);
        List<List<String>> out = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            List<String> values = new ArrayList<>();
            Set<Integer> seen = new TreeSet<>();
            for (int i = 0; i < 8; i++) {
                int id = w * 1000 + rnd.nextInt(KEYS_PER_WRITER);
                if (!seen.add(id)) continue;
                String v = "w" + w + "r" + round + "c" + c + "i" + i;
                if (rnd.nextInt(4) == 0) {
                    values.add("(" + id + ", 'gone', '-D')");
                    lastOf.put(id, null);
                } else {
                    values.add("(" + id + ", '" + v + "', '+U')");
                    lastOf.put(id, v);
                }
            }
            for (int id : SHARED) {
                String v = "w" + w + "r" + round + "c" + c + "s";
                values.add("(" + id + ", '" + v + "', '+I')");
                lastOf.put(id, v);
            }
            out.add(values);
        }
        return out;
    }

    private static Thread writer(CountDownLatch start, List<List<String>> inserts, List<Throwable> errors) {
        return new Thread(() -> {
            try {
                start.await();
                for (List<String> values : inserts) sql("INSERT INTO " + T + " VALUES " + String.join(", ", values));
            } catch (Throwable e) {
                errors.add(e);
            }
        }, "writer");
    }

    /** Every live file exists; every data file on disk is referenced by some snapshot. */
    private static void assertFiles(Path dir, int round) {
        FileStoreTable table = PkTableFiles.load(spark, dir, "pkrace.t");
        Set<String> onDisk = PkTableFiles.onDisk(dir);
        for (ManifestEntry e : PkTableFiles.liveLatest(table)) {
            assertTrue(onDisk.contains(PkTableFiles.name(e)), "round " + round + ": live file missing " + PkTableFiles.name(e));
        }
        Set<String> orphans = new TreeSet<>(onDisk);
        orphans.removeAll(PkTableFiles.referencedByAnySnapshot(table));
        assertEquals(Set.of(), orphans, "round " + round + ": data files no snapshot references");
    }
}
