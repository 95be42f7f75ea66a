package io.lagoon.it.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.DataGetters;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

/**
 * Test oracle backed by the real Apache Paimon 1.3.1 Java API (test scope only; public API only).
 * It reads table folders written by anyone (Paimon, Lagoon) and writes tables through Paimon, so
 * interop tests can compare what Paimon sees with what Lagoon sees.
 *
 * <h2>Canonical row format</h2>
 * Every row is rendered as one string, the same way as {@link SparkRows#render} renders a Spark row:
 * <pre>
 *   id=1, big=10, name=alice, amount=10.50, d=2024-01-01, ts=2024-01-02T03:04:06.123456, arr=[1, 2], m={a=1}, st={x=1, y=b}
 * </pre>
 * <ul>
 *   <li>Top level: {@code name=value} for every column in schema order, joined by {@code ", "}.
 *   <li>NULL (at any depth): {@code null}.
 *   <li>BOOLEAN: {@code true}/{@code false}. TINYINT, SMALLINT, INT, BIGINT: decimal digits.
 *   <li>FLOAT / DOUBLE: Java {@link Float#toString(float)} / {@link Double#toString(double)}
 *       ({@code 1.5}, {@code 3.0}, {@code 1.0E10}, {@code NaN}).
 *   <li>DECIMAL(p, s): {@link BigDecimal#toPlainString()} with exactly the column's scale
 *       ({@code 10.50}, {@code -3.25}, {@code 0.0000000000}; never exponent notation).
 *   <li>CHAR / VARCHAR / STRING: the characters as stored, unquoted, no padding added or removed.
 *   <li>BINARY / VARBINARY: lower-case hex without prefix ({@code 0a0bff}; empty: empty string).
 *   <li>DATE: ISO {@code yyyy-MM-dd}. TIME: ISO local time ({@code 03:04:05.123}).
 *   <li>TIMESTAMP(p) (without time zone): {@link java.time.format.DateTimeFormatter#ISO_LOCAL_DATE_TIME}
 *       of the wall clock: seconds are always printed, the fraction only with the digits needed
 *       ({@code 2024-01-02T03:04:06.123456}, {@code 2024-01-02T03:04:06.12}, {@code 2024-01-02T03:04:00}).
 *   <li>TIMESTAMP(p) WITH LOCAL TIME ZONE: the instant's UTC wall clock, same formatter (so the
 *       result never depends on the JVM or session time zone).
 *   <li>ARRAY: {@code [e1, e2]}. MAP: {@code {k1=v1, k2=v2}} with entries sorted by the rendered key
 *       string. MULTISET: like a map from element to count. ROW: {@code {x=1, y=b}} (field names, in
 *       field order). All recursively.
 * </ul>
 * Row kinds are ignored (a batch read may return +I or +U for the same row). Lists of rows are
 * returned sorted in {@link String} order. The format is not injective for strings containing
 * {@code ", "} or {@code "="}: avoid such values in tests.
 *
 * <p>Writing: {@link #writeRows} commits one batch per call through one {@code newBatchWriteBuilder()}.
 * Rows with {@link RowKind#DELETE} delete by primary key on primary-key tables. Dynamic-bucket tables
 * ({@code bucket=-1} on primary-key tables, the default) are written with {@code write(row, bucket)}
 * and, unless a bucket function is given, every row goes to bucket 0 (valid for Paimon: the dynamic
 * bucket index records it); keys that move across partitions (cross-partition upsert) are not handled.
 */
public final class PaimonOracle {

    private PaimonOracle() {}

    // ------------------------------------------------------------------ reading

    /** Opens a Paimon table folder without a catalog. */
    public static FileStoreTable openTable(java.nio.file.Path tableDir) {
        return FileStoreTableFactory.create(LocalFileIO.create(), paimonPath(tableDir));
    }

    /** Rows of the latest snapshot, rendered and sorted. Empty if the table has no snapshot. */
    public static List<String> readRows(java.nio.file.Path tableDir) {
        return readRows(tableDir, Map.of());
    }

    /** Rows as of the given snapshot id ({@code scan.snapshot-id}). */
    public static List<String> readRows(java.nio.file.Path tableDir, long snapshotId) {
        return readRows(tableDir, Map.of("scan.snapshot-id", Long.toString(snapshotId)));
    }

    /** Rows as of the given tag ({@code scan.tag-name}). */
    public static List<String> readRowsAtTag(java.nio.file.Path tableDir, String tag) {
        return readRows(tableDir, Map.of("scan.tag-name", tag));
    }

    /** Rows of the latest snapshot of a branch ({@code branch/branch-<name>}), as Paimon reads it. */
    public static List<String> readBranchRows(java.nio.file.Path tableDir, String branch) {
        return readRows(openTable(tableDir).switchToBranch(branch));
    }

    /** Rows read with extra dynamic table options (e.g. {@code scan.*}), rendered and sorted. */
    public static List<String> readRows(java.nio.file.Path tableDir, Map<String, String> dynamicOptions) {
        FileStoreTable table = openTable(tableDir);
        if (!dynamicOptions.isEmpty()) {
            table = table.copy(dynamicOptions);
        }
        return readRows(table);
    }

    private static List<String> readRows(FileStoreTable table) {
        RowType rowType = table.rowType();
        ReadBuilder readBuilder = table.newReadBuilder();
        List<Split> splits = readBuilder.newScan().plan().splits();
        List<String> out = new ArrayList<>();
        withTempDir("paimon-oracle-read", tmp -> {
            try (IOManager ioManager = IOManager.create(tmp.toString())) {
                TableRead read = readBuilder.newRead().withIOManager(ioManager);
                for (Split split : splits) {
                    try (RecordReader<InternalRow> reader = read.createReader(split)) {
                        // Rows may be reused by the reader: render each one at once.
                        reader.forEachRemaining(row -> out.add(render(row, rowType)));
                    }
                }
            }
        });
        Collections.sort(out);
        return out;
    }

    /**
     * What Paimon's streaming reader (the one a Flink job uses) emits from snapshot {@code from}
     * up to the latest: each record as {@code "<kind> <row>"}, in the order the stream gives them,
     * one inner list per plan (a plan is one snapshot's changes).
     */
    public static List<List<String>> streamChanges(java.nio.file.Path tableDir, long from) {
        return stream(tableDir, Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", Long.toString(from)));
    }

    /**
     * Paimon's streaming reader from its default start ({@code latest-full}): the first batch holds
     * the latest snapshot's rows, then one batch per later snapshot (none, here: it stops at the
     * latest); each record led by its row kind.
     */
    public static List<List<String>> streamFull(java.nio.file.Path tableDir) {
        return stream(tableDir, Map.of("scan.mode", "latest-full"));
    }

    private static List<List<String>> stream(java.nio.file.Path tableDir, Map<String, String> options) {
        FileStoreTable table = openTable(tableDir).copy(options);
        long latest = latestSnapshotId(tableDir).orElseThrow();
        RowType rowType = table.rowType();
        ReadBuilder readBuilder = table.newReadBuilder();
        org.apache.paimon.table.source.StreamTableScan scan = readBuilder.newStreamScan();
        List<List<String>> out = new ArrayList<>();
        withTempDir("paimon-oracle-stream", tmp -> {
            try (IOManager ioManager = IOManager.create(tmp.toString())) {
                TableRead read = readBuilder.newRead().withIOManager(ioManager);
                for (int guard = 0; guard < 10_000; guard++) {
                    List<Split> splits = scan.plan().splits();
                    List<String> batch = new ArrayList<>();
                    for (Split split : splits) {
                        try (RecordReader<InternalRow> reader = read.createReader(split)) {
                            reader.forEachRemaining(row -> batch.add(row.getRowKind().shortString() + " "
                                + render(row, rowType)));
                        }
                    }
                    if (!batch.isEmpty()) out.add(batch);
                    Long next = scan.checkpoint();
                    if (next == null || next > latest) break;
                }
            }
        });
        return out;
    }

    /** Number of splits a batch scan of the latest snapshot plans (Paimon's own planning). */
    public static int planSplitCount(java.nio.file.Path tableDir, Map<String, String> dynamicOptions) {
        FileStoreTable table = openTable(tableDir);
        if (!dynamicOptions.isEmpty()) {
            table = table.copy(dynamicOptions);
        }
        return table.newReadBuilder().newScan().plan().splits().size();
    }

    /** Column names in schema order (latest schema). */
    public static List<String> columnNames(java.nio.file.Path tableDir) {
        return openTable(tableDir).rowType().getFieldNames();
    }

    /** Latest snapshot id, if any. */
    public static Optional<Long> latestSnapshotId(java.nio.file.Path tableDir) {
        return openTable(tableDir).latestSnapshot().map(Snapshot::id);
    }

    // ---------------------------------------------------------------- rendering

    /** Renders one Paimon row in the canonical format (see class javadoc). Row kind is ignored. */
    public static String render(InternalRow row, RowType rowType) {
        List<DataField> fields = rowType.getFields();
        List<String> names = new ArrayList<>(fields.size());
        List<String> values = new ArrayList<>(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            names.add(fields.get(i).name());
            values.add(renderValue(row, i, fields.get(i).type()));
        }
        return CanonicalValues.fields(names, values);
    }

    private static String renderValue(DataGetters g, int pos, DataType type) {
        if (g.isNullAt(pos)) {
            return CanonicalValues.NULL;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Boolean.toString(g.getBoolean(pos));
            case TINYINT:
                return Byte.toString(g.getByte(pos));
            case SMALLINT:
                return Short.toString(g.getShort(pos));
            case INTEGER:
                return Integer.toString(g.getInt(pos));
            case BIGINT:
                return Long.toString(g.getLong(pos));
            case FLOAT:
                return CanonicalValues.floatValue(g.getFloat(pos));
            case DOUBLE:
                return CanonicalValues.doubleValue(g.getDouble(pos));
            case DECIMAL: {
                DecimalType dt = (DecimalType) type;
                BigDecimal bd = g.getDecimal(pos, dt.getPrecision(), dt.getScale()).toBigDecimal();
                return CanonicalValues.decimal(bd.setScale(dt.getScale()));
            }
            case CHAR:
            case VARCHAR:
                return g.getString(pos).toString();
            case BINARY:
            case VARBINARY:
                return CanonicalValues.hex(g.getBinary(pos));
            case DATE:
                return CanonicalValues.date(LocalDate.ofEpochDay(g.getInt(pos)));
            case TIME_WITHOUT_TIME_ZONE:
                return CanonicalValues.time(LocalTime.ofNanoOfDay(g.getInt(pos) * 1_000_000L));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return CanonicalValues.timestamp(
                        g.getTimestamp(pos, ((TimestampType) type).getPrecision()).toLocalDateTime());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                // Paimon keeps LTZ values as epoch-based timestamps: this is the UTC wall clock.
                return CanonicalValues.instant(
                        g.getTimestamp(pos, ((LocalZonedTimestampType) type).getPrecision()).toInstant());
            case ARRAY: {
                DataType elementType = ((ArrayType) type).getElementType();
                InternalArray array = g.getArray(pos);
                List<String> elements = new ArrayList<>(array.size());
                for (int i = 0; i < array.size(); i++) {
                    elements.add(renderValue(array, i, elementType));
                }
                return CanonicalValues.array(elements);
            }
            case MAP: {
                MapType mt = (MapType) type;
                return renderMap(g.getMap(pos), mt.getKeyType(), mt.getValueType());
            }
            case MULTISET:
                return renderMap(g.getMap(pos), ((MultisetType) type).getElementType(),
                        new org.apache.paimon.types.IntType(false));
            case ROW: {
                RowType rt = (RowType) type;
                InternalRow nested = g.getRow(pos, rt.getFieldCount());
                List<String> names = new ArrayList<>();
                List<String> values = new ArrayList<>();
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    names.add(rt.getFields().get(i).name());
                    values.add(renderValue(nested, i, rt.getFields().get(i).type()));
                }
                return CanonicalValues.struct(names, values);
            }
            case VARIANT:
                return String.valueOf(g.getVariant(pos));
            default:
                throw new UnsupportedOperationException("Cannot render Paimon type " + type);
        }
    }

    private static String renderMap(InternalMap map, DataType keyType, DataType valueType) {
        InternalArray keys = map.keyArray();
        InternalArray values = map.valueArray();
        List<Map.Entry<String, String>> entries = new ArrayList<>(map.size());
        for (int i = 0; i < map.size(); i++) {
            entries.add(new AbstractMap.SimpleImmutableEntry<>(
                    renderValue(keys, i, keyType), renderValue(values, i, valueType)));
        }
        return CanonicalValues.map(entries);
    }

    // ------------------------------------------------------------------ writing

    /**
     * Creates {@code db} (if absent) and {@code db.table} in a Paimon filesystem catalog rooted at
     * {@code warehouse}; returns the table folder ({@code warehouse/db.db/table}).
     */
    public static java.nio.file.Path createTable(java.nio.file.Path warehouse, String db, String table, Schema schema) {
        try {
            Files.createDirectories(warehouse);
            try (Catalog catalog = catalog(warehouse)) {
                catalog.createDatabase(db, true);
                catalog.createTable(Identifier.create(db, table), schema, false);
            }
        } catch (Exception e) {
            throw new IllegalStateException("Paimon could not create " + db + "." + table, e);
        }
        return warehouse.resolve(db + ".db").resolve(table);
    }

    /** A Paimon {@code FileSystemCatalog} on the warehouse folder; the caller closes it. */
    public static Catalog catalog(java.nio.file.Path warehouse) {
        Map<String, String> options = new HashMap<>();
        options.put("warehouse", warehouse.toAbsolutePath().toUri().toString());
        return CatalogFactory.createCatalog(CatalogContext.create(new Options(options)));
    }

    /**
     * Writes and commits the rows as one batch commit. Dynamic-bucket tables get every row in
     * bucket 0 (see the class javadoc).
     */
    public static void writeRows(java.nio.file.Path tableDir, List<? extends InternalRow> rows) {
        writeRows(tableDir, rows, row -> 0);
    }

    /**
     * Writes and commits the rows as one batch commit; {@code dynamicBucketOf} picks the bucket of a
     * row on dynamic-bucket tables ({@code bucket=-1} with a primary key) and is ignored otherwise.
     */
    public static void writeRows(java.nio.file.Path tableDir, List<? extends InternalRow> rows,
                                 ToIntFunction<InternalRow> dynamicBucketOf) {
        FileStoreTable table = openTable(tableDir);
        BucketMode mode = table.bucketMode();
        boolean dynamic = mode == BucketMode.HASH_DYNAMIC || mode == BucketMode.KEY_DYNAMIC;
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        withTempDir("paimon-oracle-write", tmp -> {
            try (IOManager ioManager = IOManager.create(tmp.toString());
                 BatchTableWrite write = builder.newWrite();
                 BatchTableCommit commit = builder.newCommit()) {
                write.withIOManager(ioManager);
                for (InternalRow row : rows) {
                    if (dynamic) {
                        write.write(row, dynamicBucketOf.applyAsInt(row));
                    } else {
                        write.write(row);
                    }
                }
                commit.commit(write.prepareCommit());
            }
        });
    }

    /**
     * Writes and commits the rows into a dynamic-bucket table with the buckets Paimon's own
     * assigner gives them (one assigner, as a Flink job of parallelism 1), loading the table's
     * HASH index as of its latest snapshot.
     */
    public static void writeRowsAsPaimonAssigns(java.nio.file.Path tableDir, List<? extends InternalRow> rows) {
        FileStoreTable table = openTable(tableDir);
        org.apache.paimon.CoreOptions o = table.coreOptions();
        Integer max = o.dynamicBucketMaxBuckets();
        org.apache.paimon.index.HashBucketAssigner assigner = new org.apache.paimon.index.HashBucketAssigner(
                table.snapshotManager(), "oracle-" + java.util.UUID.randomUUID(), table.store().newIndexFileHandler(),
                1, 1, 0, o.dynamicBucketTargetRowNum(), max == null ? -1 : max);
        org.apache.paimon.table.sink.RowKeyExtractor keys = table.createRowKeyExtractor();
        writeRows(tableDir, rows, row -> {
            keys.setRecord(row);
            return assigner.assign(keys.partition(), keys.trimmedPrimaryKey().hashCode());
        });
    }

    /**
     * Where Paimon's splits place each live row: the key {@code keyOf} renders -> {bucket, bucket
     * count}; fails if a key is live twice.
     */
    public static Map<String, int[]> bucketPlacement(java.nio.file.Path tableDir,
                                                      java.util.function.Function<InternalRow, String> keyOf) {
        FileStoreTable t = openTable(tableDir);
        ReadBuilder rb = t.newReadBuilder();
        Map<String, int[]> out = new HashMap<>();
        try {
            for (Split s : rb.newScan().plan().splits()) {
                org.apache.paimon.table.source.DataSplit d = (org.apache.paimon.table.source.DataSplit) s;
                try (org.apache.paimon.reader.RecordReader<InternalRow> r = rb.newRead().createReader(s)) {
                    r.forEachRemaining(row -> {
                        String key = keyOf.apply(row);
                        if (out.put(key, new int[] {d.bucket(), d.totalBuckets()}) != null) {
                            throw new IllegalStateException("key " + key + " is live in two places");
                        }
                    });
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    /** Creates a tag on the given snapshot. */
    public static void createTag(java.nio.file.Path tableDir, String tag, long snapshotId) {
        openTable(tableDir).createTag(tag, snapshotId);
    }

    // ------------------------------------------------------- building GenericRows

    /**
     * A row ({@link RowKind#INSERT}) from Java values converted for the given row type (recommended:
     * decimals get the column's precision and scale). See {@link #toInternal(Object, DataType)}.
     */
    public static GenericRow row(RowType rowType, Object... values) {
        return rowOfKind(RowKind.INSERT, rowType, values);
    }

    /** Like {@link #row(RowType, Object...)} with a row kind, e.g. {@link RowKind#DELETE}. */
    public static GenericRow rowOfKind(RowKind kind, RowType rowType, Object... values) {
        if (values.length != rowType.getFieldCount()) {
            throw new IllegalArgumentException("Expected " + rowType.getFieldCount() + " values, got " + values.length);
        }
        GenericRow row = new GenericRow(kind, values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, toInternal(values[i], rowType.getTypeAt(i)));
        }
        return row;
    }

    /**
     * A row from Java values without a schema: String→BinaryString, BigDecimal→Decimal (its own
     * precision and scale: pass values whose scale equals the column's), LocalDate→epoch days,
     * LocalTime→millis of day, LocalDateTime→Timestamp (wall clock), Instant→Timestamp (epoch),
     * byte[] stays, List/Object[]→GenericArray, Map→GenericMap, InternalRow (e.g. GenericRow) stays;
     * boxed primitives stay.
     */
    public static GenericRow row(Object... values) {
        GenericRow row = new GenericRow(values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, toInternal(values[i]));
        }
        return row;
    }

    /** Schema-less conversion used by {@link #row(Object...)}. */
    public static Object toInternal(Object v) {
        if (v == null) {
            return null;
        } else if (v instanceof String) {
            return BinaryString.fromString((String) v);
        } else if (v instanceof BigDecimal) {
            BigDecimal bd = (BigDecimal) v;
            return Decimal.fromBigDecimal(bd, Math.max(bd.precision(), bd.scale()), bd.scale());
        } else if (v instanceof LocalDate) {
            return (int) ((LocalDate) v).toEpochDay();
        } else if (v instanceof LocalTime) {
            return (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L);
        } else if (v instanceof LocalDateTime) {
            return Timestamp.fromLocalDateTime((LocalDateTime) v);
        } else if (v instanceof Instant) {
            return Timestamp.fromInstant((Instant) v);
        } else if (v instanceof List) {
            return new GenericArray(((List<?>) v).stream().map(PaimonOracle::toInternal).toArray());
        } else if (v instanceof Object[]) {
            return new GenericArray(Stream.of((Object[]) v).map(PaimonOracle::toInternal).toArray());
        } else if (v instanceof Map) {
            Map<Object, Object> converted = new LinkedHashMap<>();
            ((Map<?, ?>) v).forEach((k, val) -> converted.put(toInternal(k), toInternal(val)));
            return new GenericMap(converted);
        }
        return v;
    }

    /**
     * Converts a Java value to Paimon's internal representation for {@code type}: numbers are
     * narrowed/widened to the column type, String/BigDecimal/Number to DECIMAL(p, s) (rounding
     * HALF_UP to the scale; fails if it does not fit), LocalDate→epoch days, LocalTime→millis of
     * day, LocalDateTime→Timestamp (for WITH LOCAL TIME ZONE: read as a UTC wall clock),
     * Instant→Timestamp, String→BinaryString, byte[] stays, List/Object[]→GenericArray,
     * Map→GenericMap (MULTISET: element→Integer count), List/Object[] for ROW→GenericRow; values
     * already in internal form pass through.
     */
    public static Object toInternal(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return v instanceof BinaryString ? v : BinaryString.fromString(v.toString());
            case BOOLEAN:
                return v;
            case TINYINT:
                return ((Number) v).byteValue();
            case SMALLINT:
                return ((Number) v).shortValue();
            case INTEGER:
                return ((Number) v).intValue();
            case BIGINT:
                return ((Number) v).longValue();
            case FLOAT:
                return ((Number) v).floatValue();
            case DOUBLE:
                return ((Number) v).doubleValue();
            case DECIMAL: {
                if (v instanceof Decimal) {
                    return v;
                }
                DecimalType dt = (DecimalType) type;
                BigDecimal bd = v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString());
                Decimal d = Decimal.fromBigDecimal(bd, dt.getPrecision(), dt.getScale());
                if (d == null) {
                    throw new IllegalArgumentException(v + " does not fit " + type);
                }
                return d;
            }
            case DATE:
                return v instanceof LocalDate ? (int) ((LocalDate) v).toEpochDay() : ((Number) v).intValue();
            case TIME_WITHOUT_TIME_ZONE:
                return v instanceof LocalTime
                        ? (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L) : ((Number) v).intValue();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (v instanceof LocalDateTime) {
                    return Timestamp.fromLocalDateTime((LocalDateTime) v);
                } else if (v instanceof Instant) {
                    return Timestamp.fromInstant((Instant) v);
                } else if (v instanceof java.sql.Timestamp) {
                    return Timestamp.fromInstant(((java.sql.Timestamp) v).toInstant());
                }
                return v;
            case BINARY:
            case VARBINARY:
                return v;
            case ARRAY: {
                DataType et = ((ArrayType) type).getElementType();
                if (v instanceof InternalArray) {
                    return v;
                }
                List<?> list = v instanceof Object[] ? List.of((Object[]) v) : (List<?>) v;
                Object[] out = new Object[list.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = toInternal(list.get(i), et);
                }
                return new GenericArray(out);
            }
            case MAP:
            case MULTISET: {
                if (v instanceof InternalMap) {
                    return v;
                }
                DataType kt = type instanceof MapType ? ((MapType) type).getKeyType()
                        : ((MultisetType) type).getElementType();
                DataType vt = type instanceof MapType ? ((MapType) type).getValueType()
                        : new org.apache.paimon.types.IntType();
                Map<Object, Object> converted = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((k, val) -> converted.put(toInternal(k, kt), toInternal(val, vt)));
                return new GenericMap(converted);
            }
            case ROW: {
                if (v instanceof InternalRow) {
                    return v;
                }
                RowType rt = (RowType) type;
                Object[] values = v instanceof Object[] ? (Object[]) v : ((List<?>) v).toArray();
                return row(rt, values);
            }
            default:
                return v;
        }
    }

    // ------------------------------------------------------------------ helpers

    static org.apache.paimon.fs.Path paimonPath(java.nio.file.Path dir) {
        return new org.apache.paimon.fs.Path(dir.toAbsolutePath().toString());
    }

    private interface TempDirAction {
        void run(java.nio.file.Path tmp) throws Exception;
    }

    private static void withTempDir(String prefix, TempDirAction action) {
        java.nio.file.Path tmp;
        try {
            tmp = Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            action.run(tmp);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            deleteRecursively(tmp);
        }
    }

    static void deleteRecursively(java.nio.file.Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<java.nio.file.Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
