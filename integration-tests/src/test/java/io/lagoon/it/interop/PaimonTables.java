package io.lagoon.it.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.lagoon.it.oracle.PaimonOracle;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.InternalRowUtils;

/**
 * Paimon 1.3.1 side of the interop tests (Java API): the {@link InteropData} table as a Paimon
 * schema, writes and partition overwrites, filtered reads, and a check of every data file's
 * min/max/null-count stats against the rows Paimon reads from that file.
 */
public final class PaimonTables {

    private PaimonTables() {}

    /** The Paimon types Lagoon gives the {@link InteropData} columns (and Paimon must give them back). */
    public static final RowType ROW_TYPE = rowType();

    private static RowType rowType() {
        List<DataField> fields = new ArrayList<>();
        int id = 0;
        for (InteropData.Column c : InteropData.COLUMNS) {
            fields.add(DataTypes.FIELD(id++, c.name(), paimonType(c)));
        }
        return new RowType(fields);
    }

    static DataType paimonType(InteropData.Column c) {
        switch (c.kind()) {
            case BOOLEAN: return DataTypes.BOOLEAN();
            case TINYINT: return DataTypes.TINYINT();
            case SMALLINT: return DataTypes.SMALLINT();
            case INT: return DataTypes.INT();
            case BIGINT: return DataTypes.BIGINT();
            case FLOAT: return DataTypes.FLOAT();
            case DOUBLE: return DataTypes.DOUBLE();
            case DECIMAL: return DataTypes.DECIMAL(c.precision(), c.scale());
            case STRING: return DataTypes.STRING();
            case VARCHAR: return DataTypes.VARCHAR(c.precision());
            case CHAR: return DataTypes.CHAR(c.precision());
            case BINARY: return DataTypes.BYTES();
            case DATE: return DataTypes.DATE();
            case TIMESTAMP_LTZ: return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6);
            case TIMESTAMP_NTZ: return DataTypes.TIMESTAMP(6);
            case ARRAY_INT: return DataTypes.ARRAY(DataTypes.INT());
            case MAP_STRING_BIGINT: return DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT());
            case STRUCT_XY: return DataTypes.ROW(DataTypes.FIELD(100, "x", DataTypes.INT()),
                    DataTypes.FIELD(101, "y", DataTypes.STRING()));
            case NESTED: return DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(102, "k", DataTypes.STRING()),
                    DataTypes.FIELD(103, "v", DataTypes.ARRAY(DataTypes.DOUBLE()))));
            default: throw new IllegalArgumentException(c.kind().name());
        }
    }

    /** The schema of the {@link InteropData} table, partitioned by (region, pd), with extra options. */
    public static Schema schema(Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder();
        for (DataField f : ROW_TYPE.getFields()) {
            b.column(f.name(), f.type());
        }
        return b.partitionKeys(InteropData.PARTITION_KEYS).options(options).build();
    }

    public static List<GenericRow> toPaimon(List<List<Object>> rows) {
        List<GenericRow> out = new ArrayList<>();
        for (List<Object> r : rows) {
            out.add(PaimonOracle.row(ROW_TYPE, r.toArray()));
        }
        return out;
    }

    /** Appends the rows in one Paimon batch commit. */
    public static void write(Path tableDir, List<List<Object>> rows) {
        PaimonOracle.writeRows(tableDir, toPaimon(rows));
    }

    /**
     * Replaces partition {@code spec} (column name to value string, as Paimon's
     * {@code withOverwrite} takes it) with the rows in one Paimon OVERWRITE commit.
     */
    public static void overwritePartition(Path tableDir, Map<String, String> spec, List<List<Object>> rows) {
        FileStoreTable table = PaimonOracle.openTable(tableDir);
        BatchWriteBuilder builder = table.newBatchWriteBuilder().withOverwrite(spec);
        Path tmp = tempDir();
        try (IOManager ioManager = IOManager.create(tmp.toString());
             BatchTableWrite write = builder.newWrite();
             BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            for (GenericRow r : toPaimon(rows)) {
                write.write(r);
            }
            commit.commit(write.prepareCommit());
        } catch (Exception e) {
            throw new IllegalStateException("Paimon overwrite of " + spec + " failed", e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    /** A writer committing through the Paimon 1.3.1 Java API (one batch commit per call). */
    public static InteropData.Writer writer(Path tableDir) {
        return new InteropData.Writer() {
            @Override
            public void append(List<List<Object>> rows) {
                write(tableDir, rows);
            }

            @Override
            public void overwritePartition(String region, java.time.LocalDate pd, List<List<Object>> rows) {
                Map<String, String> spec = new java.util.LinkedHashMap<>();
                spec.put("region", region);
                spec.put("pd", pd.toString());
                PaimonTables.overwritePartition(tableDir, spec, rows);
            }
        };
    }

    // -------------------------------------------------------------------- reading

    /** A Paimon predicate on the {@link InteropData} table; see {@link InteropData.SqlFilter#selective()}. */
    public record NamedPredicate(String label, Predicate predicate, boolean selective) {
        @Override
        public String toString() {
            return label;
        }
    }

    private static final org.apache.paimon.predicate.PredicateBuilder PB =
            new org.apache.paimon.predicate.PredicateBuilder(ROW_TYPE);

    /** Column {@code name}'s value in row {@code id}, as a Paimon literal. */
    static Object lit(String name, int id) {
        int i = InteropData.columnIndex(name);
        return PaimonOracle.toInternal(InteropData.row(id).get(i), ROW_TYPE.getTypeAt(i));
    }

    static Object lit(String name, Object javaValue) {
        int i = InteropData.columnIndex(name);
        return PaimonOracle.toInternal(javaValue, ROW_TYPE.getTypeAt(i));
    }

    private static int idx(String name) {
        return InteropData.columnIndex(name);
    }

    /** Predicates on every column type, the Paimon twins of {@link InteropData#sqlFilters()}. */
    public static List<NamedPredicate> predicates() {
        List<NamedPredicate> p = new ArrayList<>();
        p.add(new NamedPredicate("id = 7", PB.equal(idx("id"), 7), true));
        p.add(new NamedPredicate("id < 5", PB.lessThan(idx("id"), 5), true));
        p.add(new NamedPredicate("id >= 30", PB.greaterOrEqual(idx("id"), 30), true));
        p.add(new NamedPredicate("id in (2, 27)", PB.in(idx("id"), List.of(2, 27)), true));
        p.add(new NamedPredicate("id = 3 or s = s-021", org.apache.paimon.predicate.PredicateBuilder.or(
                PB.equal(idx("id"), 3), PB.equal(idx("s"), BinaryString.fromString("s-021"))), false));
        p.add(new NamedPredicate("b = true", PB.equal(idx("b"), true), false));
        p.add(new NamedPredicate("b is null", PB.isNull(idx("b")), false));
        p.add(new NamedPredicate("ti > 100", PB.greaterThan(idx("ti"), (byte) 100), false));
        p.add(new NamedPredicate("si <= -1500", PB.lessOrEqual(idx("si"), (short) -1500), true));
        p.add(new NamedPredicate("bi > 20e9", PB.greaterThan(idx("bi"), 20_000_000_000L), true));
        p.add(new NamedPredicate("bi = max", PB.equal(idx("bi"), Long.MAX_VALUE), false));
        p.add(new NamedPredicate("f < 0", PB.lessThan(idx("f"), 0f), false));
        p.add(new NamedPredicate("f > 40", PB.greaterThan(idx("f"), 40f), true));
        p.add(new NamedPredicate("d <= 0", PB.lessOrEqual(idx("d"), 0.0), true));
        p.add(new NamedPredicate("d >= 50", PB.greaterOrEqual(idx("d"), 50.0), false));
        p.add(new NamedPredicate("dec = row 7", PB.equal(idx("dec"), lit("dec", 7)), true));
        p.add(new NamedPredicate("dec > 0", PB.greaterThan(idx("dec"), lit("dec", java.math.BigDecimal.ZERO)), false));
        p.add(new NamedPredicate("bigdec < 0", PB.lessThan(idx("bigdec"), lit("bigdec", java.math.BigDecimal.ZERO)), false));
        p.add(new NamedPredicate("bigdec = row 16", PB.equal(idx("bigdec"), lit("bigdec", 16)), false));
        for (String s : List.of("common-prefix-xx-010", "common-prefix-xx-030", "", "s-021")) {
            p.add(new NamedPredicate("s = '" + s + "'", PB.equal(idx("s"), BinaryString.fromString(s)), false));
        }
        p.add(new NamedPredicate("s = row 12", PB.equal(idx("s"), lit("s", 12)), false));
        p.add(new NamedPredicate("s = row 13", PB.equal(idx("s"), lit("s", 13)), false));
        p.add(new NamedPredicate("s >= common-prefix-xx-030",
                PB.greaterOrEqual(idx("s"), BinaryString.fromString("common-prefix-xx-030")), false));
        p.add(new NamedPredicate("s < d", PB.lessThan(idx("s"), BinaryString.fromString("d")), false));
        p.add(new NamedPredicate("s startsWith emoji", PB.startsWith(idx("s"), BinaryString.fromString("emoji")), false));
        p.add(new NamedPredicate("vc = v3", PB.equal(idx("vc"), BinaryString.fromString("v3")), true));
        p.add(new NamedPredicate("c = e010", PB.equal(idx("c"), BinaryString.fromString("e010")), false));
        p.add(new NamedPredicate("c = c007", PB.equal(idx("c"), BinaryString.fromString("c007")), false));
        p.add(new NamedPredicate("bin = row 7", PB.equal(idx("bin"), lit("bin", 7)), false));
        p.add(new NamedPredicate("dt = row 20", PB.equal(idx("dt"), lit("dt", 20)), true));
        p.add(new NamedPredicate("dt < 1600-01-01",
                PB.lessThan(idx("dt"), lit("dt", java.time.LocalDate.of(1600, 1, 1))), true));
        p.add(new NamedPredicate("ts > row 30", PB.greaterThan(idx("ts"), lit("ts", 30)), true));
        p.add(new NamedPredicate("ts = row 6", PB.equal(idx("ts"), lit("ts", 6)), false));
        p.add(new NamedPredicate("ts = row 16", PB.equal(idx("ts"), lit("ts", 16)), true));
        p.add(new NamedPredicate("ts < 1600", PB.lessThan(idx("ts"),
                lit("ts", java.time.Instant.parse("1600-01-01T00:00:00Z"))), true));
        p.add(new NamedPredicate("ntz <= row 10", PB.lessOrEqual(idx("ntz"), lit("ntz", 10)), true));
        p.add(new NamedPredicate("ntz = 9999-12-31", PB.equal(idx("ntz"),
                lit("ntz", java.time.LocalDateTime.parse("9999-12-31T23:59:59.999999"))), true));
        p.add(new NamedPredicate("ntz = row 22", PB.equal(idx("ntz"), lit("ntz", 22)), true));
        p.add(new NamedPredicate("region = east", PB.equal(idx("region"), BinaryString.fromString("east")), true));
        p.add(new NamedPredicate("region = n/a:1", PB.equal(idx("region"), BinaryString.fromString("n/a:1")), true));
        p.add(new NamedPredicate("region is null", PB.isNull(idx("region")), true));
        p.add(new NamedPredicate("pd = 2024-01-02", PB.equal(idx("pd"),
                lit("pd", java.time.LocalDate.of(2024, 1, 2))), true));
        p.add(new NamedPredicate("pd is null", PB.isNull(idx("pd")), true));
        p.add(new NamedPredicate("pd > 2024-01-01", PB.greaterThan(idx("pd"),
                lit("pd", java.time.LocalDate.of(2024, 1, 1))), true));
        p.add(new NamedPredicate("region = west and pd = 2024-01-01", org.apache.paimon.predicate.PredicateBuilder.and(
                PB.equal(idx("region"), BinaryString.fromString("west")),
                PB.equal(idx("pd"), lit("pd", java.time.LocalDate.of(2024, 1, 1)))), true));
        return p;
    }

    /** Rows a filtered Paimon read returns (each re-checked with the predicate) and the files it planned. */
    public record FilteredRead(List<String> rows, int filesPlanned) {}

    /**
     * Reads the latest snapshot through {@code ReadBuilder.withFilter}: Paimon prunes manifests,
     * files (by their stats) and row groups, then returns rows that may or may not match; the
     * rows are re-checked with {@code predicate.test} so the result is exact unless something was
     * pruned wrongly.
     */
    public static FilteredRead filteredRead(Path tableDir, Predicate predicate) {
        FileStoreTable table = PaimonOracle.openTable(tableDir);
        RowType rowType = table.rowType();
        ReadBuilder rb = table.newReadBuilder().withFilter(predicate);
        List<Split> splits = rb.newScan().plan().splits();
        int files = 0;
        for (Split s : splits) {
            files += ((DataSplit) s).dataFiles().size();
        }
        List<String> out = new ArrayList<>();
        readSplits(rb, splits, row -> {
            if (predicate.test(row)) {
                out.add(PaimonOracle.render(row, rowType));
            }
        });
        Collections.sort(out);
        return new FilteredRead(out, files);
    }

    /** Every row of the latest snapshot that satisfies the predicate (no filter pushed down). */
    public static List<String> exactMatches(Path tableDir, Predicate predicate) {
        FileStoreTable table = PaimonOracle.openTable(tableDir);
        RowType rowType = table.rowType();
        ReadBuilder rb = table.newReadBuilder();
        List<String> out = new ArrayList<>();
        readSplits(rb, rb.newScan().plan().splits(), row -> {
            if (predicate.test(row)) {
                out.add(PaimonOracle.render(row, rowType));
            }
        });
        Collections.sort(out);
        return out;
    }

    /** Data files of the latest snapshot as Paimon plans them. */
    public static List<DataFileMeta> dataFiles(Path tableDir) {
        List<DataFileMeta> out = new ArrayList<>();
        for (Split s : PaimonOracle.openTable(tableDir).newReadBuilder().newScan().plan().splits()) {
            out.addAll(((DataSplit) s).dataFiles());
        }
        return out;
    }

    private interface RowConsumer {
        void accept(InternalRow row);
    }

    private static void readSplits(ReadBuilder rb, List<Split> splits, RowConsumer consumer) {
        Path tmp = tempDir();
        try (IOManager ioManager = IOManager.create(tmp.toString())) {
            TableRead read = rb.newRead().withIOManager(ioManager);
            for (Split split : splits) {
                try (RecordReader<InternalRow> reader = read.createReader(split)) {
                    reader.forEachRemaining(consumer::accept);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("Paimon read failed", e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    // ---------------------------------------------------------------------- stats

    /**
     * Checks every data file of the latest snapshot: Paimon decodes the file's value stats from
     * the manifest (as its scan does for filtering) and reads the file's rows; the stats must
     * bound the values. Null counts must be exact, and min/max must be exact for every scalar
     * column except where a string is longer than 16 characters (then the min is its
     * 16-character prefix and the max that prefix with the last code point raised by one).
     * Min/max may be absent (unknown) only for binary and nested columns.
     *
     * @return one line per problem found (empty when every file's stats are right)
     */
    public static List<String> statsProblems(Path tableDir) {
        FileStoreTable table = PaimonOracle.openTable(tableDir);
        RowType rowType = table.rowType();
        ReadBuilder rb = table.newReadBuilder();
        List<String> problems = new ArrayList<>();
        int files = 0;
        for (Split s : rb.newScan().plan().splits()) {
            DataSplit ds = (DataSplit) s;
            for (DataFileMeta f : ds.dataFiles()) {
                files++;
                if (f.schemaId() != table.schema().id()) {
                    continue; // written under another schema: stats are positional over that one
                }
                DataSplit one = DataSplit.builder().withSnapshot(ds.snapshotId()).withPartition(ds.partition())
                        .withBucket(ds.bucket()).withBucketPath(ds.bucketPath()).withTotalBuckets(ds.totalBuckets())
                        .withDataFiles(List.of(f)).rawConvertible(true).isStreaming(false).build();
                ColumnRange[] ranges = new ColumnRange[rowType.getFieldCount()];
                for (int i = 0; i < ranges.length; i++) {
                    ranges[i] = new ColumnRange(rowType.getTypeAt(i), i);
                }
                long[] rows = {0};
                readSplits(rb, List.of(one), row -> {
                    rows[0]++;
                    for (ColumnRange r : ranges) {
                        r.add(row);
                    }
                });
                String where = f.fileName() + " (" + ds.bucketPath() + ")";
                if (rows[0] != f.rowCount()) {
                    problems.add(where + ": _ROW_COUNT " + f.rowCount() + " but " + rows[0] + " rows read");
                }
                checkFile(f, rowType, ranges, where, problems);
            }
        }
        if (files == 0) {
            problems.add("no data files planned");
        }
        return problems;
    }

    private static void checkFile(DataFileMeta f, RowType rowType, ColumnRange[] ranges, String where,
                                  List<String> problems) {
        BinaryRow min = f.valueStats().minValues();
        BinaryRow max = f.valueStats().maxValues();
        InternalArray nulls = f.valueStats().nullCounts();
        List<String> statsCols = f.valueStatsCols();
        for (int i = 0; i < ranges.length; i++) {
            DataField field = rowType.getFields().get(i);
            int si = statsCols == null ? i : statsCols.indexOf(field.name());
            ColumnRange r = ranges[i];
            String col = where + " column " + field.name() + " " + field.type();
            if (si < 0 && !r.ranged) {
                continue; // dense stats (Paimon 1.x) leave nested columns out
            }
            if (si < 0 || si >= min.getFieldCount() || si >= max.getFieldCount()) {
                problems.add(col + ": no stats (valueStatsCols=" + statsCols + ", arity " + min.getFieldCount() + ")");
                continue;
            }
            Long nullCount = si < nulls.size() && !nulls.isNullAt(si) ? nulls.getLong(si) : null;
            if (nullCount == null || nullCount != r.nulls) {
                problems.add(col + ": null count " + nullCount + " but " + r.nulls + " nulls read");
            }
            DataType type = field.type();
            Object statMin = InternalRow.createFieldGetter(type, si).getFieldOrNull(min);
            Object statMax = InternalRow.createFieldGetter(type, si).getFieldOrNull(max);
            boolean nested = type.getTypeRoot() == DataTypeRoot.ARRAY || type.getTypeRoot() == DataTypeRoot.MAP
                    || type.getTypeRoot() == DataTypeRoot.ROW || type.getTypeRoot() == DataTypeRoot.MULTISET;
            boolean binary = type.getTypeRoot() == DataTypeRoot.BINARY || type.getTypeRoot() == DataTypeRoot.VARBINARY;
            if (nested) {
                if (statMin != null || statMax != null) {
                    problems.add(col + ": min/max present on a nested column");
                }
                continue;
            }
            if (r.min == null) {
                if (statMin != null || statMax != null) {
                    problems.add(col + ": only nulls, but min " + render(type, statMin) + " max " + render(type, statMax));
                }
                continue;
            }
            if (statMin == null || statMax == null) {
                if (!binary && !r.sawNaN) { // Paimon leaves min/max out when a float column holds NaN
                    problems.add(col + ": min " + render(type, statMin) + " / max " + render(type, statMax)
                            + " missing; values range " + render(type, r.min) + " .. " + render(type, r.max));
                }
                continue;
            }
            if (r.sawNaN) {
                continue; // Paimon's own stats of a column holding NaN are unreliable (ORC: min NaN)
            }
            Object expectedMin = r.min;
            Object expectedMax = r.max;
            if (r.min instanceof BinaryString) {
                expectedMin = truncateMin((BinaryString) r.min);
                expectedMax = truncateMax((BinaryString) r.max);
            }
            if (compare(statMin, r.min, type) > 0) {
                problems.add(col + ": min " + render(type, statMin) + " above the smallest value " + render(type, r.min));
            }
            if (compare(statMax, r.max, type) < 0) {
                problems.add(col + ": max " + render(type, statMax) + " below the largest value " + render(type, r.max));
            }
            if (!render(type, statMin).equals(render(type, expectedMin))) {
                problems.add(col + ": min " + render(type, statMin) + ", expected " + render(type, expectedMin));
            }
            if (expectedMax != null && !render(type, statMax).equals(render(type, expectedMax))) {
                problems.add(col + ": max " + render(type, statMax) + ", expected " + render(type, expectedMax));
            }
        }
    }

    static final int TRUNCATE = 16;

    static BinaryString truncateMin(BinaryString s) {
        return s.numChars() <= TRUNCATE ? s : s.substring(0, TRUNCATE);
    }

    static BinaryString truncateMax(BinaryString s) {
        if (s.numChars() <= TRUNCATE) {
            return s;
        }
        int[] cps = s.substring(0, TRUNCATE).toString().codePoints().toArray();
        cps[cps.length - 1]++;
        return BinaryString.fromString(new String(cps, 0, cps.length));
    }

    private static int compare(Object a, Object b, DataType type) {
        if (a instanceof Boolean) {
            return Boolean.compare((Boolean) a, (Boolean) b);
        }
        return InternalRowUtils.compare(a, b, type.getTypeRoot());
    }

    private static String render(DataType type, Object value) {
        return PaimonOracle.render(GenericRow.of(value), RowType.of(type));
    }

    /** Null count and exact min/max of one column over the rows of a file. */
    private static final class ColumnRange {
        final DataType type;
        final InternalRow.FieldGetter getter;
        final boolean ranged;
        long nulls;
        boolean sawNaN;
        Object min;
        Object max;

        ColumnRange(DataType type, int pos) {
            this.type = type;
            this.getter = InternalRow.createFieldGetter(type, pos);
            DataTypeRoot root = type.getTypeRoot();
            this.ranged = !(root == DataTypeRoot.ARRAY || root == DataTypeRoot.MAP || root == DataTypeRoot.ROW
                    || root == DataTypeRoot.MULTISET);
        }

        void add(InternalRow row) {
            Object v = getter.getFieldOrNull(row);
            if (v == null) {
                nulls++;
                return;
            }
            if (!ranged) {
                return;
            }
            if ((v instanceof Float && ((Float) v).isNaN()) || (v instanceof Double && ((Double) v).isNaN())) {
                sawNaN = true;
            }
            if (min == null || compare(v, min, type) < 0) {
                min = copy(v);
            }
            if (max == null || compare(v, max, type) > 0) {
                max = copy(v);
            }
        }

        private static Object copy(Object v) {
            if (v instanceof BinaryString) {
                return ((BinaryString) v).copy();
            } else if (v instanceof Decimal) {
                return ((Decimal) v).copy();
            } else if (v instanceof byte[]) {
                return ((byte[]) v).clone();
            }
            return v;
        }
    }

    // -------------------------------------------------------------------- helpers

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("interop-paimon");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteQuietly(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignore) {
            // temporary folder
        }
    }
}
