package io.lagoon.core.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** A file's last key survives the reuse of the row it was copied from, for every key type, nulls included. */
class LastKeyTest {
  private static final List<DataField> KEYS = List.of(
      new DataField(0, "b", PaimonType.of(TypeRoot.BOOLEAN)),
      new DataField(1, "t", PaimonType.of(TypeRoot.TINYINT)),
      new DataField(2, "s", PaimonType.of(TypeRoot.SMALLINT)),
      new DataField(3, "i", PaimonType.of(TypeRoot.INT)),
      new DataField(4, "d", PaimonType.of(TypeRoot.DATE)),
      new DataField(5, "l", PaimonType.of(TypeRoot.BIGINT)),
      new DataField(6, "f", PaimonType.of(TypeRoot.FLOAT)),
      new DataField(7, "x", PaimonType.of(TypeRoot.DOUBLE)),
      new DataField(8, "ts", PaimonType.timestamp(6, false)),
      new DataField(9, "ltz", PaimonType.timestamp(3, true)),
      new DataField(10, "dec", PaimonType.decimal(20, 2)),
      new DataField(11, "str", PaimonType.withLength(TypeRoot.VARCHAR, Integer.MAX_VALUE)),
      new DataField(12, "bin", PaimonType.withLength(TypeRoot.VARBINARY, Integer.MAX_VALUE)));

  private static Object[] values(int seed) {
    return new Object[] {seed % 2 == 0, (byte) seed, (short) (seed * 300), seed * 70_000, seed, seed * 5_000_000_000L,
        seed / 3f, seed / 7.0, seed * 1_000_001L, -seed * 1000L, Decimal.apply(seed * 12345678901L, 20, 2),
        UTF8String.fromString("k-" + seed), new byte[] {(byte) seed, 1}};
  }

  @Test
  void theCopyOutlivesTheReusedRow() {
    LastKey last = new LastKey(KEYS);
    assertNull(last.row());
    Object[] reused = values(3);
    GenericInternalRow row = new GenericInternalRow(reused);
    last.copyFrom(row);
    // The reader moves on: the same row objects now hold another key.
    byte[] bytes = (byte[]) reused[12];
    bytes[0] = 99;
    Object[] next = values(8);
    System.arraycopy(next, 0, reused, 0, reused.length);
    assertEquals(rendered(new GenericInternalRow(values(3))), rendered(last.row()));
    // Nulls, and values again after nulls.
    Object[] nulls = new Object[KEYS.size()];
    last.copyFrom(new GenericInternalRow(nulls));
    for (int i = 0; i < KEYS.size(); i++) assertEquals(true, last.row().isNullAt(i), "field " + i);
    last.copyFrom(new GenericInternalRow(values(5)));
    assertEquals(rendered(new GenericInternalRow(values(5))), rendered(last.row()));
  }

  private static List<String> rendered(InternalRow r) {
    List<String> out = new ArrayList<>();
    out.add(r.getBoolean(0) + "," + r.getByte(1) + "," + r.getShort(2) + "," + r.getInt(3) + "," + r.getInt(4) + ","
        + r.getLong(5) + "," + r.getFloat(6) + "," + r.getDouble(7) + "," + r.getLong(8) + "," + r.getLong(9));
    out.add(r.getDecimal(10, 20, 2).toString());
    out.add(r.getUTF8String(11).toString());
    out.add(java.util.Arrays.toString(r.getBinary(12)));
    return out;
  }
}
