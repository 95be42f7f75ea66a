package io.lagoon.it.interop;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import io.lagoon.it.oracle.CanonicalValues;

/**
 * The rows of the interop tests, written by one side and read by the other, with an expected
 * rendering that depends on neither: every value is a plain Java value, turned into a Spark SQL
 * literal ({@link #valuesSql}) for Lagoon or Paimon 0.9's Spark catalog, into a Paimon
 * {@code GenericRow} by {@code PaimonOracle.row} for the Paimon 1.3.1 Java API, and into the
 * canonical string of {@code PaimonOracle}/{@code SparkRows} by {@link #render}.
 *
 * <p>Table {@code ALL_TYPES}: every type Lagoon supports, partitioned by a STRING (with a value
 * that needs escaping in a folder name, and null) and a DATE (legacy epoch-day folder names, and
 * null). Values cover nulls at every depth, extremes, negative numbers, pre-Gregorian and
 * pre-epoch dates and timestamps, strings longer than the 16-character stats truncation (with a
 * shared 16-character prefix, multi-byte and supplementary characters), NaN and -0.0.
 *
 * <p>JDK only: used in the Paimon 1.3.1 and in the Paimon 0.9 test JVMs.
 */
public final class InteropData {

    private InteropData() {}

    /** What Java value a column holds. */
    public enum Kind {
        BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, VARCHAR, CHAR, BINARY, DATE,
        TIMESTAMP_LTZ, TIMESTAMP_NTZ, ARRAY_INT, MAP_STRING_BIGINT, STRUCT_XY, NESTED
    }

    /**
     * A column: {@code sparkType} is its Spark DDL type, {@code castType} the type a literal is cast
     * to (Spark has no CHAR/VARCHAR casts).
     */
    public record Column(String name, Kind kind, String sparkType, String castType, int precision, int scale) {
        Column(String name, Kind kind, String sparkType) {
            this(name, kind, sparkType, sparkType, 0, 0);
        }
    }

    public static final List<Column> COLUMNS = List.of(
            new Column("id", Kind.INT, "INT"),
            new Column("b", Kind.BOOLEAN, "BOOLEAN"),
            new Column("ti", Kind.TINYINT, "TINYINT"),
            new Column("si", Kind.SMALLINT, "SMALLINT"),
            new Column("bi", Kind.BIGINT, "BIGINT"),
            new Column("f", Kind.FLOAT, "FLOAT"),
            new Column("d", Kind.DOUBLE, "DOUBLE"),
            new Column("dec", Kind.DECIMAL, "DECIMAL(10,2)", "DECIMAL(10,2)", 10, 2),
            new Column("bigdec", Kind.DECIMAL, "DECIMAL(38,10)", "DECIMAL(38,10)", 38, 10),
            new Column("s", Kind.STRING, "STRING"),
            new Column("vc", Kind.VARCHAR, "VARCHAR(10)", "STRING", 10, 0),
            new Column("c", Kind.CHAR, "CHAR(4)", "STRING", 4, 0),
            new Column("bin", Kind.BINARY, "BINARY"),
            new Column("dt", Kind.DATE, "DATE"),
            new Column("ts", Kind.TIMESTAMP_LTZ, "TIMESTAMP"),
            new Column("ntz", Kind.TIMESTAMP_NTZ, "TIMESTAMP_NTZ"),
            new Column("arr", Kind.ARRAY_INT, "ARRAY<INT>"),
            new Column("m", Kind.MAP_STRING_BIGINT, "MAP<STRING,BIGINT>"),
            new Column("st", Kind.STRUCT_XY, "STRUCT<x:INT,y:STRING>"),
            new Column("nested", Kind.NESTED, "ARRAY<STRUCT<k:STRING,v:ARRAY<DOUBLE>>>"),
            new Column("region", Kind.STRING, "STRING"),
            new Column("pd", Kind.DATE, "DATE"));

    public static final List<String> PARTITION_KEYS = List.of("region", "pd");

    /** Partition values rows are spread over; the third region needs escaping in a folder name. */
    public static final List<String> REGIONS = Arrays.asList("east", "west", "n/a:1", null);
    public static final List<LocalDate> PARTITION_DATES = Arrays.asList(
            LocalDate.of(2024, 1, 1), LocalDate.of(2024, 1, 2), null);

    public static List<String> columnNames() {
        List<String> out = new ArrayList<>();
        for (Column c : COLUMNS) {
            out.add(c.name());
        }
        return out;
    }

    public static int columnIndex(String name) {
        for (int i = 0; i < COLUMNS.size(); i++) {
            if (COLUMNS.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    /** {@code (id INT, b BOOLEAN, ...)} for CREATE TABLE. */
    public static String columnsDdl() {
        List<String> parts = new ArrayList<>();
        for (Column c : COLUMNS) {
            parts.add(c.name() + " " + c.sparkType());
        }
        return "(" + String.join(", ", parts) + ")";
    }

    /** {@code CREATE TABLE <name> (...) PARTITIONED BY (region, pd) TBLPROPERTIES (...)}. */
    public static String createTableSql(String qualifiedName, Map<String, String> properties) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(qualifiedName).append(' ').append(columnsDdl())
                .append(" PARTITIONED BY (").append(String.join(", ", PARTITION_KEYS)).append(')');
        if (!properties.isEmpty()) {
            List<String> props = new ArrayList<>();
            properties.forEach((k, v) -> props.add("'" + k + "'='" + v + "'"));
            sb.append(" TBLPROPERTIES (").append(String.join(", ", props)).append(')');
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------- the rows

    /**
     * Row {@code id}: deterministic values, mostly rising with the id (so files written by
     * different commits have disjoint ranges and stats can prune), a few edge cases by id.
     * Rows with {@code id % 9 == 8} are null in every non-key column.
     */
    public static List<Object> row(int id) {
        return row(id, REGIONS.get(id % REGIONS.size()), PARTITION_DATES.get(id % PARTITION_DATES.size()));
    }

    /** Row {@code id} placed in the given partition. */
    public static List<Object> row(int id, String region, LocalDate pd) {
        Object[] v = new Object[COLUMNS.size()];
        v[0] = id;
        if (id % 9 == 8) {
            v[COLUMNS.size() - 2] = region;
            v[COLUMNS.size() - 1] = pd;
            return Collections.unmodifiableList(Arrays.asList(v));
        }
        v[1] = id % 3 == 0 ? null : id % 2 == 0;
        v[2] = (byte) (id * 7 - 60);
        v[3] = (short) (id * 300 - 3000);
        v[4] = id == 1 ? Long.MIN_VALUE : id == 2 ? Long.MAX_VALUE : id * 1_000_000_007L - 5_000_000_000L;
        v[5] = id == 9 ? Float.NaN : id == 10 ? -0.0f : id * 1.25f - 7f;
        v[6] = id == 11 ? 1.0E300 : id * 3.5 - 20.125;
        v[7] = new BigDecimal(id * 11111 - 50000).movePointLeft(2);
        BigDecimal big = new BigDecimal(id + "123456789012345678901.0123456789");
        v[8] = id % 5 == 0 ? big.negate() : big;
        switch (id % 5) {
            case 0:
                v[9] = String.format("common-prefix-xx-%03d", id); // > 16 chars, shared 16-char prefix
                break;
            case 1:
                v[9] = String.format("s-%03d", id);
                break;
            case 2:
                v[9] = "ünïcödé✓日本語-long-" + id; // multi-byte, > 16 chars
                break;
            case 3:
                v[9] = id % 2 == 0 ? "" : "emoji-\uD83D\uDE00-and-more-text-" + id; // supplementary character
                break;
            default:
                v[9] = null;
        }
        v[10] = "v" + id;
        // CHAR(4) values use the full length: Spark 3.5 pads CHAR on read only (see CharPaddingTest)
        v[11] = String.format("%s%03d", id % 2 == 0 ? "e" : "c", id);
        v[12] = id % 5 == 0 ? new byte[0] : new byte[] {(byte) id, (byte) -id, 0, (byte) 0xff};
        v[13] = id == 3 ? LocalDate.of(1, 1, 1) : id == 5 ? LocalDate.of(1582, 10, 10)
                : LocalDate.of(2024, 1, 1).plusDays(id * 37L - 400);
        v[14] = id == 4 ? Instant.parse("1500-06-01T12:00:00.000001Z")
                // before the epoch (negative micros). Not within the last second before it: ORC's
                // own reader gets (-1 s, 0) wrong whoever writes the file (Paimon included).
                : id == 6 ? Instant.parse("1969-12-31T23:59:58.000001Z")
                : Instant.parse("2024-01-02T03:04:05.123456Z").plusSeconds(id * 86_400L * 13 - 1_000_000L)
                        .plusNanos(id * 1000L);
        v[15] = id == 7 ? LocalDateTime.parse("9999-12-31T23:59:59.999999")
                : id == 12 ? LocalDateTime.parse("1899-12-31T23:59:59")
                : LocalDateTime.parse("2023-06-15T10:20:30.654321").plusHours(id * 50L - 200).plusNanos(id * 1000L);
        v[16] = id % 4 == 0 ? List.of() : Arrays.asList(id, null, id * 2);
        Map<String, Long> m = new LinkedHashMap<>();
        if (id % 4 != 1) {
            m.put("k" + id, id * 10L);
            m.put("z", null);
        }
        v[17] = m;
        v[18] = id % 6 == 0 ? new Object[] {null, null} : new Object[] {id, "y" + id};
        v[19] = id % 4 == 2 ? List.of()
                : id % 4 == 3 ? List.of(new Object[] {"k" + id, null}, new Object[] {null, List.of(-1.5)})
                : Collections.singletonList(new Object[] {"k" + id, Arrays.asList(id + 0.5, null)});
        v[20] = region;
        v[21] = pd;
        return Collections.unmodifiableList(Arrays.asList(v));
    }

    /** Rows {@code from..to} (inclusive). */
    public static List<List<Object>> rows(int from, int to) {
        List<List<Object>> out = new ArrayList<>();
        for (int id = from; id <= to; id++) {
            out.add(row(id));
        }
        return out;
    }

    /** Rows {@code from..to} that the filter keeps. */
    public static List<List<Object>> rows(int from, int to, IntPredicate keep) {
        List<List<Object>> out = new ArrayList<>();
        for (int id = from; id <= to; id++) {
            if (keep.test(id)) {
                out.add(row(id));
            }
        }
        return out;
    }

    /** Whether a row lies in partition (region, pd). */
    public static boolean inPartition(List<Object> row, String region, LocalDate pd) {
        return java.util.Objects.equals(row.get(COLUMNS.size() - 2), region)
                && java.util.Objects.equals(row.get(COLUMNS.size() - 1), pd);
    }

    // ------------------------------------------------------------------ commits

    /**
     * One commit of the interop scenario: an append of {@code rows}, or (when {@code region} is
     * set) a static overwrite of partition ({@code region}, {@code pd}) with them.
     */
    public record Step(String label, List<List<Object>> rows, String region, LocalDate pd) {
        public boolean overwrite() {
            return region != null;
        }

        /** The table's rows after this commit, given the rows before it. */
        public List<List<Object>> apply(List<List<Object>> before) {
            List<List<Object>> out = new ArrayList<>();
            for (List<Object> r : before) {
                if (!overwrite() || !inPartition(r, region, pd)) {
                    out.add(r);
                }
            }
            out.addAll(rows);
            return out;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** Writes the commits of a scenario, whoever the writer is. */
    public interface Writer {
        void append(List<List<Object>> rows);

        void overwritePartition(String region, LocalDate pd, List<List<Object>> rows);

        default void apply(Step step) {
            if (step.overwrite()) {
                overwritePartition(step.region(), step.pd(), step.rows());
            } else {
                append(step.rows());
            }
        }
    }

    /**
     * The commits every interop table goes through: appends of rising ids (each commit's ids
     * above the previous ones, so stats of different commits' files do not overlap), one of them
     * with a block of rows in a single partition (multi-row files), and two static partition
     * overwrites (one of the partition whose folder name needs escaping).
     */
    public static List<Step> steps() {
        List<List<Object>> third = new ArrayList<>(rows(61, 75));
        for (int id = 76; id <= 90; id++) {
            third.add(row(id, "east", LocalDate.of(2024, 1, 1)));
        }
        List<List<Object>> westRows = new ArrayList<>();
        for (int id = 101; id <= 104; id++) {
            westRows.add(row(id, "west", LocalDate.of(2024, 1, 2)));
        }
        return List.of(
                new Step("append 1..30", rows(1, 30), null, null),
                new Step("append 31..60", rows(31, 60), null, null),
                new Step("append 61..90", third, null, null),
                new Step("overwrite west/2024-01-02", westRows, "west", LocalDate.of(2024, 1, 2)),
                new Step("append 91..100", rows(91, 100), null, null),
                new Step("overwrite n/a:1/2024-01-01", List.of(row(105, "n/a:1", LocalDate.of(2024, 1, 1))),
                        "n/a:1", LocalDate.of(2024, 1, 1)));
    }

    /**
     * {@link #steps()} for a file format and reader, leaving out values that the real Paimon cannot
     * round-trip itself, whoever writes them:
     * <ul>
     *   <li>ORC: no timestamp before the Gregorian switch (row 4's {@code ts} moves from 1500 to
     *       1600): Paimon 1.3.1 reads its own ORC {@code 1500-06-01T12:00Z} back as
     *       {@code 1500-06-21} (and its TIMESTAMP(6) {@code 1500-06-01T12:00} as {@code 1500-06-11});
     *   <li>Paimon 0.9: no non-null struct whose fields are all null ({@code st} of every sixth row
     *       becomes {@code {x=null, y=half}}): Paimon 0.9's Parquet reader returns such a struct as
     *       null, and its Parquet writer stores some of them as null.
     * </ul>
     */
    public static List<Step> steps(String format, boolean paimon09) {
        List<Step> out = new ArrayList<>();
        for (Step s : steps()) {
            List<List<Object>> rows = new ArrayList<>();
            for (List<Object> r : s.rows()) {
                List<Object> copy = new ArrayList<>(r);
                Object st = copy.get(18);
                if (paimon09 && st instanceof Object[] && ((Object[]) st)[0] == null && ((Object[]) st)[1] == null) {
                    copy.set(18, new Object[] {null, "half"});
                }
                if (format.equals("orc") && copy.get(14) instanceof Instant
                        && ((Instant) copy.get(14)).isBefore(Instant.parse("1583-01-01T00:00:00Z"))) {
                    copy.set(14, ((Instant) copy.get(14)).atZone(ZoneOffset.UTC).plusYears(100).toInstant());
                }
                rows.add(Collections.unmodifiableList(copy));
            }
            out.add(new Step(s.label(), rows, s.region(), s.pd()));
        }
        return out;
    }

    /** The commit kinds (Paimon's names) of {@link #steps()}. */
    public static List<String> stepCommitKinds() {
        List<String> out = new ArrayList<>();
        for (Step s : steps()) {
            out.add(s.overwrite() ? "OVERWRITE" : "APPEND");
        }
        return out;
    }

    /** A writer that runs Spark SQL INSERT statements on {@code qualifiedName} (any catalog). */
    public static Writer sqlWriter(java.util.function.Consumer<String> sql, String qualifiedName) {
        return new Writer() {
            @Override
            public void append(List<List<Object>> rows) {
                sql.accept(insertSql(qualifiedName, rows));
            }

            @Override
            public void overwritePartition(String region, LocalDate pd, List<List<Object>> rows) {
                sql.accept(insertOverwritePartitionSql(qualifiedName, region, pd, rows));
            }
        };
    }

    // ----------------------------------------------------------------- rendering

    /** The canonical rendering of one row (see {@code PaimonOracle}). */
    public static String renderRow(List<Object> row) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < COLUMNS.size(); i++) {
            values.add(renderValue(COLUMNS.get(i).kind(), COLUMNS.get(i).scale(), row.get(i)));
        }
        return CanonicalValues.fields(columnNames(), values);
    }

    /** Canonical renderings of the rows, sorted. */
    public static List<String> render(List<List<Object>> rows) {
        List<String> out = new ArrayList<>();
        for (List<Object> r : rows) {
            out.add(renderRow(r));
        }
        Collections.sort(out);
        return out;
    }

    @SuppressWarnings("unchecked")
    static String renderValue(Kind kind, int scale, Object v) {
        if (v == null) {
            return CanonicalValues.NULL;
        }
        switch (kind) {
            case FLOAT:
                return CanonicalValues.floatValue((Float) v);
            case DOUBLE:
                return CanonicalValues.doubleValue((Double) v);
            case DECIMAL:
                return CanonicalValues.decimal(((BigDecimal) v).setScale(scale));
            case BINARY:
                return CanonicalValues.hex((byte[]) v);
            case DATE:
                return CanonicalValues.date((LocalDate) v);
            case TIMESTAMP_LTZ:
                return CanonicalValues.instant((Instant) v);
            case TIMESTAMP_NTZ:
                return CanonicalValues.timestamp((LocalDateTime) v);
            case ARRAY_INT: {
                List<String> out = new ArrayList<>();
                for (Object e : (List<Object>) v) {
                    out.add(renderValue(Kind.INT, 0, e));
                }
                return CanonicalValues.array(out);
            }
            case MAP_STRING_BIGINT: {
                List<Map.Entry<String, String>> entries = new ArrayList<>();
                ((Map<String, Long>) v).forEach((k, val) -> entries.add(
                        new AbstractMap.SimpleImmutableEntry<>(k, renderValue(Kind.BIGINT, 0, val))));
                return CanonicalValues.map(entries);
            }
            case STRUCT_XY: {
                Object[] st = (Object[]) v;
                return CanonicalValues.struct(List.of("x", "y"),
                        List.of(renderValue(Kind.INT, 0, st[0]), renderValue(Kind.STRING, 0, st[1])));
            }
            case NESTED: {
                List<String> out = new ArrayList<>();
                for (Object e : (List<Object>) v) {
                    if (e == null) {
                        out.add(CanonicalValues.NULL);
                        continue;
                    }
                    Object[] st = (Object[]) e;
                    List<String> doubles = new ArrayList<>();
                    if (st[1] != null) {
                        for (Object x : (List<Object>) st[1]) {
                            doubles.add(renderValue(Kind.DOUBLE, 0, x));
                        }
                    }
                    out.add(CanonicalValues.struct(List.of("k", "v"), List.of(renderValue(Kind.STRING, 0, st[0]),
                            st[1] == null ? CanonicalValues.NULL : CanonicalValues.array(doubles))));
                }
                return CanonicalValues.array(out);
            }
            default:
                return v.toString();
        }
    }

    // -------------------------------------------------------------------- filters

    /**
     * A WHERE condition on the {@link InteropData} table. {@code selective}: on a table written
     * in several commits of rising ids ({@code 1..12}, {@code 13..24}, ...), partition pruning or
     * min/max stats must let the scan skip some data files.
     */
    public record SqlFilter(String condition, boolean selective) {
        @Override
        public String toString() {
            return condition;
        }
    }

    /** The literal of column {@code name} in row {@code id}. */
    public static String literalOf(String name, int id) {
        int i = columnIndex(name);
        return literal(COLUMNS.get(i), row(id).get(i));
    }

    /** Conditions on every column type: partition keys, values, nulls, truncated strings, combinations. */
    public static List<SqlFilter> sqlFilters() {
        List<SqlFilter> f = new ArrayList<>();
        f.add(new SqlFilter("id = 7", true));
        f.add(new SqlFilter("id < 5", true));
        f.add(new SqlFilter("id >= 30", true));
        f.add(new SqlFilter("id IN (2, 27)", true));
        f.add(new SqlFilter("NOT (id > 3)", true));
        f.add(new SqlFilter("id = 3 OR s = 's-021'", false));
        f.add(new SqlFilter("b = true", false));
        f.add(new SqlFilter("b IS NULL", false));
        f.add(new SqlFilter("b IS NOT NULL", false));
        f.add(new SqlFilter("ti > CAST(100 AS TINYINT)", false));
        f.add(new SqlFilter("ti = " + literalOf("ti", 5), false));
        f.add(new SqlFilter("si <= CAST(-1500 AS SMALLINT)", true));
        f.add(new SqlFilter("bi > 20000000000", true));
        f.add(new SqlFilter("bi = 9223372036854775807", false));
        f.add(new SqlFilter("bi = -9223372036854775808", false));
        f.add(new SqlFilter("f < CAST(0 AS FLOAT)", false));
        f.add(new SqlFilter("f > CAST(40 AS FLOAT)", true));
        f.add(new SqlFilter("f = " + literalOf("f", 14), true));
        f.add(new SqlFilter("d <= CAST(0 AS DOUBLE)", true));
        f.add(new SqlFilter("d >= CAST(50 AS DOUBLE)", false));
        f.add(new SqlFilter("d = " + literalOf("d", 11), false));
        f.add(new SqlFilter("dec = " + literalOf("dec", 7), true));
        f.add(new SqlFilter("dec > CAST(0 AS DECIMAL(10,2))", false));
        f.add(new SqlFilter("bigdec < CAST(0 AS DECIMAL(38,10))", false));
        f.add(new SqlFilter("bigdec = " + literalOf("bigdec", 16), false));
        f.add(new SqlFilter("s = 'common-prefix-xx-010'", false));
        f.add(new SqlFilter("s = 'common-prefix-xx-030'", false));
        f.add(new SqlFilter("s >= 'common-prefix-xx-030'", false));
        f.add(new SqlFilter("s = " + literalOf("s", 12), false));
        f.add(new SqlFilter("s = " + literalOf("s", 13), false));
        f.add(new SqlFilter("s LIKE 'emoji%'", false));
        f.add(new SqlFilter("s = ''", false));
        f.add(new SqlFilter("s < 'd'", false));
        f.add(new SqlFilter("vc = 'v3'", true));
        f.add(new SqlFilter("vc > 'v9'", false));
        f.add(new SqlFilter("c = 'e010'", false));
        f.add(new SqlFilter("c = 'c007'", false));
        f.add(new SqlFilter("bin = " + literalOf("bin", 7), false));
        f.add(new SqlFilter("dt = " + literalOf("dt", 20), true));
        f.add(new SqlFilter("dt < DATE'1600-01-01'", true));
        f.add(new SqlFilter("ts > " + literalOf("ts", 30), true));
        f.add(new SqlFilter("ts = " + literalOf("ts", 6), false));
        f.add(new SqlFilter("ts = " + literalOf("ts", 16), true));
        f.add(new SqlFilter("ts < TIMESTAMP'1600-01-01 00:00:00'", true));
        f.add(new SqlFilter("ntz <= " + literalOf("ntz", 10), true));
        f.add(new SqlFilter("ntz = TIMESTAMP_NTZ'9999-12-31 23:59:59.999999'", true));
        f.add(new SqlFilter("ntz = " + literalOf("ntz", 22), true));
        f.add(new SqlFilter("region = 'east'", true));
        f.add(new SqlFilter("region = 'n/a:1'", true));
        f.add(new SqlFilter("region IS NULL", true));
        f.add(new SqlFilter("region <> 'east'", true));
        f.add(new SqlFilter("pd = DATE'2024-01-02'", true));
        f.add(new SqlFilter("pd IS NULL", true));
        f.add(new SqlFilter("pd > DATE'2024-01-01'", true));
        f.add(new SqlFilter("region = 'west' AND pd = DATE'2024-01-01'", true));
        f.add(new SqlFilter("id = 7 AND region = 'west'", true));
        f.add(new SqlFilter("st.x = 4", false));
        f.add(new SqlFilter("size(arr) > 1", false));
        f.add(new SqlFilter("m['z'] IS NULL", false));
        return f;
    }

    // ------------------------------------------------------------------------ SQL

    private static final DateTimeFormatter SQL_TS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

    /** {@code INSERT INTO <table> VALUES ...} of the rows. */
    public static String insertSql(String qualifiedName, List<List<Object>> rows) {
        return "INSERT INTO " + qualifiedName + " VALUES " + valuesSql(rows, COLUMNS.size());
    }

    /**
     * {@code INSERT OVERWRITE <table> PARTITION (region=.., pd=..) VALUES ...}: a static overwrite of
     * one partition (every row must lie in it; the partition columns are left out of VALUES).
     */
    public static String insertOverwritePartitionSql(String qualifiedName, String region, LocalDate pd,
                                                     List<List<Object>> rows) {
        for (List<Object> r : rows) {
            if (!inPartition(r, region, pd)) {
                throw new IllegalArgumentException("row " + r.get(0) + " is not in partition " + region + "/" + pd);
            }
        }
        return "INSERT OVERWRITE " + qualifiedName + " PARTITION (region = " + sqlString(region)
                + ", pd = DATE'" + pd + "') VALUES " + valuesSql(rows, COLUMNS.size() - PARTITION_KEYS.size());
    }

    /** {@code (lit, lit, ...), (...)} of the first {@code width} columns of each row. */
    public static String valuesSql(List<List<Object>> rows, int width) {
        List<String> tuples = new ArrayList<>();
        for (List<Object> r : rows) {
            List<String> lits = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                lits.add(literal(COLUMNS.get(i), r.get(i)));
            }
            tuples.add("(" + String.join(", ", lits) + ")");
        }
        return String.join(", ", tuples);
    }

    /** A Spark SQL literal of the column's type. */
    public static String literal(Column c, Object v) {
        if (v == null) {
            return "CAST(NULL AS " + c.castType() + ")";
        }
        return "CAST(" + bareLiteral(c.kind(), v) + " AS " + c.castType() + ")";
    }

    @SuppressWarnings("unchecked")
    private static String bareLiteral(Kind kind, Object v) {
        if (v == null) {
            return "NULL";
        }
        switch (kind) {
            case BOOLEAN:
            case INT:
                return v.toString();
            case TINYINT:
            case SMALLINT:
            case BIGINT:
                return "CAST(" + v + " AS " + (kind == Kind.TINYINT ? "TINYINT" : kind == Kind.SMALLINT ? "SMALLINT" : "BIGINT") + ")";
            case FLOAT:
                return "CAST('" + v + "' AS FLOAT)";
            case DOUBLE:
                return "CAST('" + v + "' AS DOUBLE)";
            case DECIMAL:
                return "'" + ((BigDecimal) v).toPlainString() + "'";
            case STRING:
            case VARCHAR:
            case CHAR:
                return sqlString((String) v);
            case BINARY:
                return "X'" + CanonicalValues.hex((byte[]) v) + "'";
            case DATE:
                return "DATE'" + v + "'";
            case TIMESTAMP_LTZ:
                return "TIMESTAMP'" + SQL_TS.format(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC)) + "'";
            case TIMESTAMP_NTZ:
                return "TIMESTAMP_NTZ'" + SQL_TS.format((LocalDateTime) v) + "'";
            case ARRAY_INT: {
                List<String> out = new ArrayList<>();
                for (Object e : (List<Object>) v) {
                    out.add(e == null ? "CAST(NULL AS INT)" : e.toString());
                }
                return "array(" + String.join(", ", out) + ")";
            }
            case MAP_STRING_BIGINT: {
                List<String> out = new ArrayList<>();
                ((Map<String, Long>) v).forEach((k, val) -> {
                    out.add(sqlString(k));
                    out.add(val == null ? "CAST(NULL AS BIGINT)" : "CAST(" + val + " AS BIGINT)");
                });
                return "map(" + String.join(", ", out) + ")";
            }
            case STRUCT_XY: {
                Object[] st = (Object[]) v;
                return "named_struct('x', " + (st[0] == null ? "CAST(NULL AS INT)" : st[0].toString())
                        + ", 'y', " + (st[1] == null ? "CAST(NULL AS STRING)" : sqlString((String) st[1])) + ")";
            }
            case NESTED: {
                List<String> out = new ArrayList<>();
                for (Object e : (List<Object>) v) {
                    Object[] st = (Object[]) e;
                    String doubles;
                    if (st[1] == null) {
                        doubles = "CAST(NULL AS ARRAY<DOUBLE>)";
                    } else {
                        List<String> ds = new ArrayList<>();
                        for (Object x : (List<Object>) st[1]) {
                            ds.add(x == null ? "CAST(NULL AS DOUBLE)" : "CAST('" + x + "' AS DOUBLE)");
                        }
                        doubles = "array(" + String.join(", ", ds) + ")";
                    }
                    out.add("named_struct('k', " + (st[0] == null ? "CAST(NULL AS STRING)" : sqlString((String) st[0]))
                            + ", 'v', " + doubles + ")");
                }
                return "array(" + String.join(", ", out) + ")";
            }
            default:
                throw new IllegalArgumentException(kind.name());
        }
    }

    /** A quoted Spark SQL string literal, or {@code NULL}. */
    public static String sqlString(String s) {
        if (s == null) {
            return "NULL";
        }
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
