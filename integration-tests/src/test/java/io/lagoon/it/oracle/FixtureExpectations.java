package io.lagoon.it.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parser for the fixtures' {@code *.expected.txt} files. Their format:
 * <pre>
 * == db.append_t pk=[] partitions=[] latestSnapshot=3(COMPACT)
 *    splits=1 rows=5
 *    id=1, big=1000000000001, name=alice, score=1.5, amount=10.50, d=2024-01-01, ts=2024-01-02T03:04:06.123456
 *    ...
 * -- db.append_t @ tag tag1
 *    splits=1 rows=5
 *    ...
 * </pre>
 * {@code ==} starts a table (rows at its latest snapshot), {@code --} the rows at a tag of the
 * table named. Row lines use the canonical format of {@link PaimonOracle} (row kinds left out);
 * they are returned trimmed, {@linkplain #normalise normalised} and sorted in String order, the
 * way {@link PaimonOracle#readRows} and {@link SparkRows#renderAll} return rows. JDK only.
 */
public final class FixtureExpectations {

    /** Expected rows of a tag. */
    public record Tag(String name, int splits, List<String> rows) {}

    /** Expectations of one table ({@code db.table}). */
    public record Table(String name, List<String> primaryKeys, List<String> partitionKeys,
                        long latestSnapshotId, String latestSnapshotKind, int latestSplits,
                        List<String> latestRows, Map<String, Tag> tags) {

        /** {@code table} of {@code db.table}. */
        public String tableName() {
            return name.substring(name.indexOf('.') + 1);
        }

        /** {@code db} of {@code db.table}. */
        public String databaseName() {
            return name.substring(0, name.indexOf('.'));
        }

        public List<String> tagRows(String tag) {
            Tag t = tags.get(tag);
            if (t == null) {
                throw new IllegalArgumentException(name + " has no expected tag " + tag + " (has " + tags.keySet() + ")");
            }
            return t.rows();
        }
    }

    private static final Pattern TABLE = Pattern.compile(
            "^== (\\S+) pk=\\[(.*)] partitions=\\[(.*)] latestSnapshot=(\\d+)\\((\\w+)\\)\\s*$");
    private static final Pattern TAG = Pattern.compile("^-- (\\S+) @ tag (\\S+)\\s*$");
    private static final Pattern COUNTS = Pattern.compile("^splits=(\\d+) rows=(\\d+)$");

    private FixtureExpectations() {}

    public static Map<String, Table> load(Path file) {
        try {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tables by {@code db.table}, in file order. */
    public static Map<String, Table> parse(List<String> lines) {
        Map<String, Builder> builders = new LinkedHashMap<>();
        Section current = null;
        for (int lineNo = 1; lineNo <= lines.size(); lineNo++) {
            String raw = lines.get(lineNo - 1);
            if (raw.isBlank()) {
                continue;
            }
            Matcher m;
            if ((m = TABLE.matcher(raw)).matches()) {
                Builder b = new Builder(m.group(1), list(m.group(2)), list(m.group(3)),
                        Long.parseLong(m.group(4)), m.group(5));
                if (builders.put(b.name, b) != null) {
                    throw new IllegalArgumentException("line " + lineNo + ": table " + b.name + " twice");
                }
                current = b.latest;
            } else if ((m = TAG.matcher(raw)).matches()) {
                Builder b = builders.get(m.group(1));
                if (b == null) {
                    throw new IllegalArgumentException("line " + lineNo + ": tag of unknown table " + m.group(1));
                }
                current = new Section();
                b.tags.put(m.group(2), current);
            } else if (current == null) {
                throw new IllegalArgumentException("line " + lineNo + ": row before any section: " + raw);
            } else if ((m = COUNTS.matcher(raw.trim())).matches() && current.rows.isEmpty() && current.splits < 0) {
                current.splits = Integer.parseInt(m.group(1));
                current.rowCount = Integer.parseInt(m.group(2));
            } else {
                current.rows.add(normalise(raw));
            }
        }
        Map<String, Table> out = new LinkedHashMap<>();
        for (Builder b : builders.values()) {
            out.put(b.name, b.build());
        }
        return out;
    }

    /**
     * Normalises one rendered row so that the fixture files and both renderers compare equal:
     * trims the line. (The fixture files already print values the way {@link CanonicalValues} does:
     * decimals at their scale, ISO dates, ISO timestamps with seconds, Java doubles.)
     */
    public static String normalise(String row) {
        return row.trim();
    }

    /** Normalises and sorts a list of rendered rows. */
    public static List<String> normalise(List<String> rows) {
        List<String> out = new ArrayList<>(rows.size());
        for (String r : rows) {
            out.add(normalise(r));
        }
        Collections.sort(out);
        return out;
    }

    private static List<String> list(String commaSeparated) {
        if (commaSeparated.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : Arrays.asList(commaSeparated.split(","))) {
            out.add(s.trim());
        }
        return List.copyOf(out);
    }

    private static final class Section {
        int splits = -1;
        int rowCount = -1;
        final List<String> rows = new ArrayList<>();

        List<String> sortedRows(String where) {
            if (rowCount >= 0 && rowCount != rows.size()) {
                throw new IllegalArgumentException(where + ": header says rows=" + rowCount + ", found " + rows.size());
            }
            List<String> sorted = new ArrayList<>(rows);
            Collections.sort(sorted);
            return List.copyOf(sorted);
        }
    }

    private static final class Builder {
        final String name;
        final List<String> pk;
        final List<String> partitions;
        final long latestSnapshotId;
        final String latestSnapshotKind;
        final Section latest = new Section();
        final Map<String, Section> tags = new LinkedHashMap<>();

        Builder(String name, List<String> pk, List<String> partitions, long latestSnapshotId, String kind) {
            this.name = name;
            this.pk = pk;
            this.partitions = partitions;
            this.latestSnapshotId = latestSnapshotId;
            this.latestSnapshotKind = kind;
        }

        Table build() {
            Map<String, Tag> tagMap = new LinkedHashMap<>();
            tags.forEach((tag, s) -> tagMap.put(tag, new Tag(tag, s.splits, s.sortedRows(name + " @ " + tag))));
            return new Table(name, pk, partitions, latestSnapshotId, latestSnapshotKind, latest.splits,
                    latest.sortedRows(name), Collections.unmodifiableMap(tagMap));
        }
    }
}
