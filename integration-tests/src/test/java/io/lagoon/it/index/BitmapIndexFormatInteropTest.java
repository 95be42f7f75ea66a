package io.lagoon.it.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.index.BitmapIndex;
import io.lagoon.it.oracle.RequiresPaimon131;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fileindex.FileIndexReader;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.bitmap.BitmapFileIndex;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.fs.ByteArraySeekableStream;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.FieldRef;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Lagoon's bitmap index is Paimon's: Paimon 1.3.1's reader finds every row of every value (and of
 * null) in the version-1 index Lagoon writes, and Lagoon finds them in the version-1 and version-2
 * indexes Paimon writes, for every type Paimon indexes with bitmaps (keys as Paimon encodes them:
 * timestamps as epoch millis up to precision 3, micros above).
 */
@RequiresPaimon131
class BitmapIndexFormatInteropTest {
  private static final Random R = new Random(23);

  /** One column type: Paimon's type, the key width, a random internal value, and its Lagoon key. */
  private record Column(DataType type, BitmapIndex.Width width, Function<Integer, Object> value,
                        Function<Object, BitmapIndex.Key> key) {}

  private static List<Column> columns() {
    return List.of(
        new Column(DataTypes.INT(), BitmapIndex.Width.FOUR, i -> i * 7919 - 50000, v -> BitmapIndex.Key.ofInt((Integer) v)),
        new Column(DataTypes.BIGINT(), BitmapIndex.Width.EIGHT, i -> (long) i * 1_000_000_007L - 3L,
            v -> BitmapIndex.Key.ofLong((Long) v)),
        new Column(DataTypes.SMALLINT(), BitmapIndex.Width.TWO, i -> (short) (i * 31 - 1000), v -> BitmapIndex.Key.ofShort((Short) v)),
        new Column(DataTypes.TINYINT(), BitmapIndex.Width.ONE, i -> (byte) (i - 60), v -> BitmapIndex.Key.ofByte((Byte) v)),
        new Column(DataTypes.BOOLEAN(), BitmapIndex.Width.ONE, i -> i % 2 == 0, v -> BitmapIndex.Key.ofBoolean((Boolean) v)),
        new Column(DataTypes.DATE(), BitmapIndex.Width.FOUR, i -> 18000 + i, v -> BitmapIndex.Key.ofInt((Integer) v)),
        new Column(DataTypes.STRING(), BitmapIndex.Width.VARIABLE,
            i -> BinaryString.fromString("s-" + i + (i % 5 == 0 ? "\u00e9\u4e2d" : "") + "x".repeat(i % 9)),
            v -> BitmapIndex.Key.of(((BinaryString) v).toString().getBytes(StandardCharsets.UTF_8))),
        new Column(DataTypes.TIMESTAMP(3), BitmapIndex.Width.EIGHT, i -> Timestamp.fromEpochMillis(1_700_000_000_000L + i * 1001L),
            v -> BitmapIndex.Key.ofLong(((Timestamp) v).getMillisecond())),
        new Column(DataTypes.TIMESTAMP(6), BitmapIndex.Width.EIGHT, i -> Timestamp.fromMicros(1_700_000_000_000_000L + i * 1001L),
            v -> BitmapIndex.Key.ofLong(((Timestamp) v).toMicros())));
  }

  /** A column of random values from {@code distinct} (nulls one in eight). */
  private static List<Object> rows(Column c, int distinct, int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(R.nextInt(8) == 0 ? null : c.value().apply(R.nextInt(distinct)));
    return out;
  }

  private static RoaringBitmap expected(List<Object> rows, Object value) {
    RoaringBitmap b = new RoaringBitmap();
    for (int i = 0; i < rows.size(); i++) if (value == null ? rows.get(i) == null : value.equals(rows.get(i))) b.add(i);
    return b;
  }

  private static RoaringBitmap paimonRows(FileIndexResult result) {
    RoaringBitmap b = new RoaringBitmap();
    java.util.Iterator<Integer> it = ((BitmapIndexResult) result).get().iterator();
    while (it.hasNext()) b.add(it.next());
    return b;
  }

  @Test
  void paimonReadsLagoonsIndexAndLagoonReadsPaimonsOfBothVersions() {
    for (Column c : columns()) {
      for (int distinct : new int[] {2, 40, 3000}) {
        List<Object> rows = rows(c, distinct, 1 + R.nextInt(6000));
        Set<Object> values = new LinkedHashSet<>(rows);
        FieldRef ref = new FieldRef(0, "c", c.type());

        BitmapIndex.Builder mine = new BitmapIndex.Builder(c.width());
        for (Object v : rows) mine.add(v == null ? null : c.key().apply(v));
        byte[] lagoon = mine.serialize();
        FileIndexReader paimon = new BitmapFileIndex(c.type(), new Options())
            .createReader(new ByteArraySeekableStream(lagoon), 0, lagoon.length);
        for (Object v : values) {
          RoaringBitmap want = expected(rows, v);
          RoaringBitmap got = v == null ? paimonRows(paimon.visitIsNull(ref)) : paimonRows(paimon.visitEqual(ref, v));
          assertEquals(want, got, c.type() + " value " + v + ": Paimon reading Lagoon's index");
        }

        for (String version : new String[] {"1", "2"}) {
          Options o = new Options();
          o.set("version", version);
          FileIndexWriter w = new BitmapFileIndex(c.type(), o).createWriter();
          for (Object v : rows) w.write(v);
          byte[] theirs = w.serializedBytes();
          BitmapIndex read = BitmapIndex.read(theirs, 0, theirs.length, c.width());
          assertEquals(rows.size(), read.rowCount());
          for (Object v : values) {
            RoaringBitmap got = v == null ? read.nullRows() : read.rowsOf(c.key().apply(v));
            assertEquals(expected(rows, v), got, c.type() + " value " + v + ": Lagoon reading Paimon's version " + version);
          }
        }
      }
    }
  }
}
