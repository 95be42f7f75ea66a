package io.lagoon.core.mergetree.engine;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Reading, copying, comparing and testing equality of Catalyst internal values by Paimon type:
 * BOOLEAN boolean, TINYINT byte, SMALLINT short, INT/DATE/TIME int, BIGINT/TIMESTAMP(_LTZ) long
 * (micros), FLOAT float, DOUBLE double, DECIMAL {@link Decimal}, CHAR/VARCHAR {@link UTF8String},
 * BINARY/VARBINARY byte[], ARRAY {@link ArrayData}, MAP/MULTISET {@link MapData}, ROW
 * {@link InternalRow}.
 */
final class Values {
  private Values() {}

  /** Reads one field of a row. */
  @FunctionalInterface
  interface Getter {
    /** The value, or null when the field is null. Not copied. */
    Object get(InternalRow row);
  }

  static Getter getter(int pos, PaimonType t) {
    switch (t.root()) {
      case BOOLEAN: return r -> r.isNullAt(pos) ? null : (Object) r.getBoolean(pos);
      case TINYINT: return r -> r.isNullAt(pos) ? null : (Object) r.getByte(pos);
      case SMALLINT: return r -> r.isNullAt(pos) ? null : (Object) r.getShort(pos);
      case INT: case DATE: case TIME: return r -> r.isNullAt(pos) ? null : (Object) r.getInt(pos);
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return r -> r.isNullAt(pos) ? null : (Object) r.getLong(pos);
      case FLOAT: return r -> r.isNullAt(pos) ? null : (Object) r.getFloat(pos);
      case DOUBLE: return r -> r.isNullAt(pos) ? null : (Object) r.getDouble(pos);
      case DECIMAL: {
        int p = t.precision();
        int s = t.scale();
        return r -> r.isNullAt(pos) ? null : r.getDecimal(pos, p, s);
      }
      case CHAR: case VARCHAR: return r -> r.isNullAt(pos) ? null : r.getUTF8String(pos);
      case BINARY: case VARBINARY: return r -> r.isNullAt(pos) ? null : r.getBinary(pos);
      case ARRAY: return r -> r.isNullAt(pos) ? null : r.getArray(pos);
      case MAP: case MULTISET: return r -> r.isNullAt(pos) ? null : r.getMap(pos);
      case ROW: {
        int n = t.fields().size();
        return r -> r.isNullAt(pos) ? null : r.getStruct(pos, n);
      }
      default: throw new IllegalArgumentException("Unsupported type " + t);
    }
  }

  static Getter[] getters(List<DataField> fields) {
    Getter[] out = new Getter[fields.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = getter(i, fields.get(i).type());
    }
    return out;
  }

  /** A deep copy that no longer shares memory with the row it was read from. */
  static Object copy(PaimonType t, Object v) {
    if (v == null) {
      return null;
    }
    switch (t.root()) {
      case CHAR: case VARCHAR: return ((UTF8String) v).clone();
      case BINARY: case VARBINARY: return ((byte[]) v).clone();
      case DECIMAL: return ((Decimal) v).clone();
      case ARRAY: return ((ArrayData) v).copy();
      case MAP: case MULTISET: return ((MapData) v).copy();
      case ROW: return ((InternalRow) v).copy();
      default: return v; // boxed primitives are immutable
    }
  }

  /** A row of deep copies of every field. */
  static GenericInternalRow copyRow(InternalRow row, Getter[] getters, List<DataField> fields) {
    Object[] values = new Object[getters.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = copy(fields.get(i).type(), getters[i].get(row));
    }
    return new GenericInternalRow(values);
  }

  /**
   * A copy of a whole value row that shares no memory with it: {@link UnsafeRow#copy()} for
   * unsafe rows (one byte copy), field-by-field deep copies for anything else.
   */
  static InternalRow copyValueRow(InternalRow row, Getter[] getters, List<DataField> fields) {
    return row instanceof UnsafeRow ? row.copy() : copyRow(row, getters, fields);
  }

  /** Copies a key row with {@link InternalRow#copy()} (null stays null). */
  static InternalRow copyKey(InternalRow key) {
    return key == null ? null : key.copy();
  }

  /** True when values of this type have a total order {@link #compare} implements. */
  static boolean isOrderable(TypeRoot root) {
    return !root.isNested();
  }

  /** Compares two non-null values of an orderable type. Strings and binaries compare bytewise. */
  static int compare(PaimonType t, Object a, Object b) {
    switch (t.root()) {
      case BOOLEAN: return Boolean.compare((Boolean) a, (Boolean) b);
      case TINYINT: return Byte.compare((Byte) a, (Byte) b);
      case SMALLINT: return Short.compare((Short) a, (Short) b);
      case INT: case DATE: case TIME: return Integer.compare((Integer) a, (Integer) b);
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return Long.compare((Long) a, (Long) b);
      case FLOAT: return Float.compare((Float) a, (Float) b);
      case DOUBLE: return Double.compare((Double) a, (Double) b);
      case DECIMAL: return ((Decimal) a).compare((Decimal) b);
      case CHAR: case VARCHAR: return ((UTF8String) a).compareTo((UTF8String) b);
      case BINARY: case VARBINARY: return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      default: throw new IllegalArgumentException("Values of type " + t + " have no order");
    }
  }

  /** Null-aware deep equality. */
  static boolean equal(PaimonType t, Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    switch (t.root()) {
      case ARRAY: return arraysEqual(t.element(), (ArrayData) a, (ArrayData) b);
      case MULTISET: return mapsEqual(t.element(), PaimonType.of(TypeRoot.INT), (MapData) a, (MapData) b);
      case MAP: return mapsEqual(t.key(), t.value(), (MapData) a, (MapData) b);
      case ROW: {
        InternalRow x = (InternalRow) a;
        InternalRow y = (InternalRow) b;
        List<DataField> fs = t.fields();
        for (int i = 0; i < fs.size(); i++) {
          Getter g = getter(i, fs.get(i).type());
          if (!equal(fs.get(i).type(), g.get(x), g.get(y))) {
            return false;
          }
        }
        return true;
      }
      default: return compare(t, a, b) == 0;
    }
  }

  static Object elementAt(PaimonType t, ArrayData a, int i) {
    if (a.isNullAt(i)) {
      return null;
    }
    switch (t.root()) {
      case BOOLEAN: return a.getBoolean(i);
      case TINYINT: return a.getByte(i);
      case SMALLINT: return a.getShort(i);
      case INT: case DATE: case TIME: return a.getInt(i);
      case BIGINT: case TIMESTAMP: case TIMESTAMP_LTZ: return a.getLong(i);
      case FLOAT: return a.getFloat(i);
      case DOUBLE: return a.getDouble(i);
      case DECIMAL: return a.getDecimal(i, t.precision(), t.scale());
      case CHAR: case VARCHAR: return a.getUTF8String(i);
      case BINARY: case VARBINARY: return a.getBinary(i);
      case ARRAY: return a.getArray(i);
      case MAP: case MULTISET: return a.getMap(i);
      case ROW: return a.getStruct(i, t.fields().size());
      default: throw new IllegalArgumentException("Unsupported type " + t);
    }
  }

  private static boolean arraysEqual(PaimonType elem, ArrayData a, ArrayData b) {
    if (a.numElements() != b.numElements()) {
      return false;
    }
    for (int i = 0; i < a.numElements(); i++) {
      if (!equal(elem, elementAt(elem, a, i), elementAt(elem, b, i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean mapsEqual(PaimonType k, PaimonType v, MapData a, MapData b) {
    return a.numElements() == b.numElements()
        && arraysEqual(k, a.keyArray(), b.keyArray())
        && arraysEqual(v, a.valueArray(), b.valueArray());
  }
}
