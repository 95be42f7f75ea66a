package io.lagoon.it.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.snapshot.CommitKind;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.it.LagoonSparkTest;
import org.junit.jupiter.api.Test;

/**
 * Many small upsert commits into a two-bucket table with the default compaction trigger (5 sorted
 * runs): the table stays right, write-triggered compaction keeps every bucket's sorted-run count
 * bounded after every commit, and the snapshot log is exactly one APPEND per INSERT, each
 * optionally followed by one COMPACT, with contiguous ids.
 */
class PkManyCommitsTest extends LagoonSparkTest {
    private static final int COMMITS = 150;
    private static final int TRIGGER = 5;

    @Test
    void manyCommitsStayCorrectAndBounded() throws IOException {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.pkmany");
        String t = "lake.pkmany.t";
        sql("CREATE TABLE " + t + " (id INT NOT NULL, v BIGINT, op STRING) TBLPROPERTIES ("
                + "'primary-key' = 'id', 'bucket' = '2', 'rowkind.field' = 'op')");
        Path dir = warehouse.resolve("pkmany.db").resolve("t");
        FileStoreTable table = PkTableFiles.load(spark, dir, "pkmany.t");

        Random rnd = new Random(150);
        Map<Integer, Long> expected = new TreeMap<>();
        int maxRuns = 0;
        String maxRunsAt = "";
        for (int c = 0; c < COMMITS; c++) {
            List<String> values = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                int id = rnd.nextInt(60);
                if (!seen.add(id)) continue; // one record per key and commit: order inside an INSERT is free
                boolean delete = c > 10 && rnd.nextInt(8) == 0;
                long v = c * 100L + i;
                values.add("(" + id + ", " + v + ", '" + (delete ? "-D" : "+I") + "')");
                if (delete) expected.remove(id);
                else expected.put(id, v);
            }
            sql("INSERT INTO " + t + " VALUES " + String.join(", ", values));

            Map<Integer, Integer> runs = sortedRunsPerBucket(PkTableFiles.liveLatest(table));
            for (Map.Entry<Integer, Integer> b : runs.entrySet()) {
                if (b.getValue() > maxRuns) {
                    maxRuns = b.getValue();
                    maxRunsAt = "commit " + c + " bucket " + b.getKey() + " " + levels(PkTableFiles.liveLatest(table));
                }
            }
            if (c % 50 == 49) assertEquals(render(expected), rows("SELECT id, v FROM " + t), "after commit " + c);
        }

        // (a) the table equals the last write of every key.
        assertEquals(render(expected), rows("SELECT id, v FROM " + t));
        assertEquals(List.of(String.valueOf(expected.size())), rows("SELECT count(*) FROM " + t));

        // (b) compaction kept the read cost bounded after every commit.
        assertTrue(maxRuns <= TRIGGER + 1, "at most trigger+1 sorted runs per bucket, saw " + maxRuns + " at " + maxRunsAt);

        // (c) one APPEND per INSERT, each followed by at most one COMPACT; ids 1..n without gaps.
        List<Long> ids = table.snapshots().listIds();
        List<CommitKind> kinds = new ArrayList<>();
        for (long id : ids) kinds.add(table.snapshots().snapshot(id).commitKind);
        for (int i = 0; i < ids.size(); i++) assertEquals(i + 1L, ids.get(i), "snapshot ids are contiguous from 1");
        assertEquals(COMMITS, kinds.stream().filter(k -> k == CommitKind.APPEND).count(), "APPEND snapshots");
        long compacts = kinds.stream().filter(k -> k == CommitKind.COMPACT).count();
        assertEquals(ids.size(), COMMITS + compacts, "only APPEND and COMPACT snapshots: " + kinds);
        assertEquals(CommitKind.APPEND, kinds.get(0));
        for (int i = 1; i < kinds.size(); i++) {
            if (kinds.get(i) == CommitKind.COMPACT) {
                assertEquals(CommitKind.APPEND, kinds.get(i - 1), "a COMPACT follows its write's APPEND, at " + ids.get(i));
            }
        }
        // 150 commits of ~2 records per bucket: a 5-run trigger must have fired many times.
        assertTrue(compacts >= COMMITS / (2 * TRIGGER), "write-triggered compactions: " + compacts);
        Snapshot latest = table.snapshots().latest().orElseThrow();
        assertEquals((long) ids.get(ids.size() - 1), latest.id);
    }

    /** Per bucket: level-0 files (each its own run) plus the distinct levels above 0. */
    static Map<Integer, Integer> sortedRunsPerBucket(Iterable<ManifestEntry> live) {
        Map<Integer, Integer> level0 = new HashMap<>();
        Map<Integer, Set<Integer>> upper = new HashMap<>();
        for (ManifestEntry e : live) {
            if (e.file.level == 0) level0.merge(e.bucket, 1, Integer::sum);
            else upper.computeIfAbsent(e.bucket, b -> new HashSet<>()).add(e.file.level);
        }
        Map<Integer, Integer> out = new TreeMap<>();
        for (int b : level0.keySet()) out.merge(b, level0.get(b), Integer::sum);
        for (int b : upper.keySet()) out.merge(b, upper.get(b).size(), Integer::sum);
        return out;
    }

    /** "bucket:level" of every live file, for messages. */
    private static String levels(Iterable<ManifestEntry> live) {
        List<String> out = new ArrayList<>();
        for (ManifestEntry e : live) out.add(e.bucket + ":" + e.file.level);
        out.sort(String::compareTo);
        return out.toString();
    }

    private static List<String> render(Map<Integer, Long> m) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : m.entrySet()) out.add(e.getKey() + "," + e.getValue());
        out.sort(String::compareTo);
        return out;
    }
}
