package io.lagoon.core.mergetree.engine;

import static io.lagoon.core.types.TypeRoot.BIGINT;
import static io.lagoon.core.types.TypeRoot.CHAR;
import static io.lagoon.core.types.TypeRoot.DATE;
import static io.lagoon.core.types.TypeRoot.DECIMAL;
import static io.lagoon.core.types.TypeRoot.DOUBLE;
import static io.lagoon.core.types.TypeRoot.FLOAT;
import static io.lagoon.core.types.TypeRoot.INT;
import static io.lagoon.core.types.TypeRoot.SMALLINT;
import static io.lagoon.core.types.TypeRoot.TIME;
import static io.lagoon.core.types.TypeRoot.TIMESTAMP;
import static io.lagoon.core.types.TypeRoot.TIMESTAMP_LTZ;
import static io.lagoon.core.types.TypeRoot.TINYINT;
import static io.lagoon.core.types.TypeRoot.VARCHAR;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Paimon's per-column aggregate functions (the {@code fields.<f>.aggregate-function} option of the
 * aggregation and partial-update engines), implemented from the "Aggregation" page of the Paimon
 * docs. Null inputs never change sum, product, min, max, listagg, bool_and, bool_or, collect or
 * merge_map. Integer sums and products wrap around on overflow like Java arithmetic; a DECIMAL
 * result that no longer fits the column's precision becomes null.
 */
final class FieldAggregators {
  private FieldAggregators() {}

  static final String SUM = "sum";
  static final String PRODUCT = "product";
  static final String MIN = "min";
  static final String MAX = "max";
  static final String LAST_VALUE = "last_value";
  static final String LAST_NON_NULL_VALUE = "last_non_null_value";
  static final String FIRST_VALUE = "first_value";
  static final String FIRST_NON_NULL_VALUE = "first_non_null_value";
  static final String LISTAGG = "listagg";
  static final String BOOL_AND = "bool_and";
  static final String BOOL_OR = "bool_or";
  static final String COLLECT = "collect";
  static final String MERGE_MAP = "merge_map";

  /** Every function Lagoon implements. */
  static final List<String> SUPPORTED = List.of(SUM, PRODUCT, MIN, MAX, LAST_VALUE, LAST_NON_NULL_VALUE,
      FIRST_VALUE, FIRST_NON_NULL_VALUE, LISTAGG, BOOL_AND, BOOL_OR, COLLECT, MERGE_MAP);
  /** Paimon functions Lagoon does not implement yet. */
  static final List<String> NOT_YET = List.of("nested_update", "nested_partial_update", "merge_map_with_keytime",
      "hll_sketch", "theta_sketch", "rbm32", "rbm64");

  private static final Set<TypeRoot> NUMERIC = EnumSet.of(TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL);
  private static final Set<TypeRoot> ORDERED =
      EnumSet.of(CHAR, VARCHAR, DECIMAL, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ);

  /** Normalises and checks a function name given in {@code optionKey}. */
  static String checkName(String optionKey, String raw) {
    String fn = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
    if (SUPPORTED.contains(fn)) {
      return fn;
    }
    if (fn.equals("count")) {
      throw new IllegalArgumentException("Table option '" + optionKey + "'='" + raw + "': Paimon has no 'count' "
          + "aggregate function; to count rows, write 1 (or 0) into the column and use 'sum'");
    }
    if (NOT_YET.contains(fn)) {
      throw new IllegalArgumentException("Table option '" + optionKey + "'='" + raw + "': the Paimon aggregate "
          + "function '" + fn + "' is not supported by Lagoon yet; supported: " + SUPPORTED);
    }
    throw new IllegalArgumentException("Table option '" + optionKey + "'='" + raw
        + "' is not an aggregate function; use one of " + SUPPORTED);
  }

  /**
   * Builds the aggregator of one column, checking the function against the column type.
   *
   * @param optionKey the option the function came from, for error messages
   */
  static FieldAggregator create(String optionKey, String rawFunction, DataField field, MergeOptions o) {
    String fn = checkName(optionKey, rawFunction);
    PaimonType t = field.type();
    TypeRoot r = t.root();
    boolean ignoreRetract = o.bool(MergeOptions.fieldKey(field.name(), MergeOptions.IGNORE_RETRACT_SUFFIX), false);
    switch (fn) {
      case SUM:
        requireType(optionKey, fn, field, NUMERIC.contains(r), "DECIMAL, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE");
        return new Sum(field, ignoreRetract);
      case PRODUCT:
        requireType(optionKey, fn, field, NUMERIC.contains(r), "DECIMAL, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE");
        return new Product(field, ignoreRetract);
      case MIN:
      case MAX:
        requireType(optionKey, fn, field, ORDERED.contains(r),
            "CHAR, VARCHAR, DECIMAL, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ");
        return new MinMax(fn, field, ignoreRetract, fn.equals(MAX));
      case LAST_VALUE:
        return new LastValue(field, ignoreRetract);
      case LAST_NON_NULL_VALUE:
        return new LastNonNullValue(field, ignoreRetract);
      case FIRST_VALUE:
        return new FirstValue(field, ignoreRetract);
      case FIRST_NON_NULL_VALUE:
        return new FirstNonNullValue(field, ignoreRetract);
      case LISTAGG: {
        requireType(optionKey, fn, field, r.isString(), "STRING (CHAR, VARCHAR)");
        String delimKey = MergeOptions.fieldKey(field.name(), MergeOptions.LIST_AGG_DELIMITER_SUFFIX);
        String delim = o.get(delimKey) == null ? "," : o.get(delimKey);
        boolean distinct = o.bool(MergeOptions.fieldKey(field.name(), MergeOptions.DISTINCT_SUFFIX), false);
        return new ListAgg(field, ignoreRetract, UTF8String.fromString(delim), distinct);
      }
      case BOOL_AND:
      case BOOL_OR:
        requireType(optionKey, fn, field, r == TypeRoot.BOOLEAN, "BOOLEAN");
        return new Bool(fn, field, ignoreRetract, fn.equals(BOOL_AND));
      case COLLECT:
        requireType(optionKey, fn, field, r == TypeRoot.ARRAY, "ARRAY");
        return new Collect(field, ignoreRetract,
            o.bool(MergeOptions.fieldKey(field.name(), MergeOptions.DISTINCT_SUFFIX), false));
      case MERGE_MAP:
        requireType(optionKey, fn, field, r == TypeRoot.MAP, "MAP");
        return new MergeMap(field, ignoreRetract);
      default:
        throw new IllegalStateException(fn);
    }
  }

  private static void requireType(String optionKey, String fn, DataField f, boolean ok, String supported) {
    if (!ok) {
      throw new IllegalArgumentException("Aggregate function '" + fn + "' (table option '" + optionKey
          + "') does not support column '" + f.name() + "' of type " + f.type() + "; it supports " + supported);
    }
  }

  // ---------------------------------------------------------------- arithmetic

  static Object add(PaimonType t, Object a, Object b) {
    switch (t.root()) {
      case TINYINT: return (byte) ((Byte) a + (Byte) b);
      case SMALLINT: return (short) ((Short) a + (Short) b);
      case INT: return (Integer) a + (Integer) b;
      case BIGINT: return (Long) a + (Long) b;
      case FLOAT: return (Float) a + (Float) b;
      case DOUBLE: return (Double) a + (Double) b;
      case DECIMAL: return fit(t, big(a).add(big(b)));
      default: throw new IllegalStateException(t.toString());
    }
  }

  static Object subtract(PaimonType t, Object a, Object b) {
    switch (t.root()) {
      case TINYINT: return (byte) ((Byte) a - (Byte) b);
      case SMALLINT: return (short) ((Short) a - (Short) b);
      case INT: return (Integer) a - (Integer) b;
      case BIGINT: return (Long) a - (Long) b;
      case FLOAT: return (Float) a - (Float) b;
      case DOUBLE: return (Double) a - (Double) b;
      case DECIMAL: return fit(t, big(a).subtract(big(b)));
      default: throw new IllegalStateException(t.toString());
    }
  }

  static Object negate(PaimonType t, Object a) {
    switch (t.root()) {
      case TINYINT: return (byte) (-((Byte) a));
      case SMALLINT: return (short) (-((Short) a));
      case INT: return -((Integer) a);
      case BIGINT: return -((Long) a);
      case FLOAT: return -((Float) a);
      case DOUBLE: return -((Double) a);
      case DECIMAL: return fit(t, big(a).negate());
      default: throw new IllegalStateException(t.toString());
    }
  }

  static Object multiply(PaimonType t, Object a, Object b) {
    switch (t.root()) {
      case TINYINT: return (byte) ((Byte) a * (Byte) b);
      case SMALLINT: return (short) ((Short) a * (Short) b);
      case INT: return (Integer) a * (Integer) b;
      case BIGINT: return (Long) a * (Long) b;
      case FLOAT: return (Float) a * (Float) b;
      case DOUBLE: return (Double) a * (Double) b;
      case DECIMAL: return fit(t, big(a).multiply(big(b)));
      default: throw new IllegalStateException(t.toString());
    }
  }

  /** Division for product retraction; dividing an integer or DECIMAL by zero gives null. */
  static Object divide(PaimonType t, Object a, Object b) {
    switch (t.root()) {
      case TINYINT: return (Byte) b == 0 ? null : (Object) (byte) ((Byte) a / (Byte) b);
      case SMALLINT: return (Short) b == 0 ? null : (Object) (short) ((Short) a / (Short) b);
      case INT: return (Integer) b == 0 ? null : (Object) ((Integer) a / (Integer) b);
      case BIGINT: return (Long) b == 0 ? null : (Object) ((Long) a / (Long) b);
      case FLOAT: return (Float) a / (Float) b;
      case DOUBLE: return (Double) a / (Double) b;
      case DECIMAL: {
        BigDecimal d = big(b);
        return d.signum() == 0 ? null : fit(t, big(a).divide(d, t.scale(), RoundingMode.HALF_UP));
      }
      default: throw new IllegalStateException(t.toString());
    }
  }

  private static BigDecimal big(Object d) {
    return ((Decimal) d).toJavaBigDecimal();
  }

  /** Rounds to the column scale; null when the value needs more than the column precision. */
  static Decimal fit(PaimonType t, BigDecimal v) {
    BigDecimal r = v.setScale(t.scale(), RoundingMode.HALF_UP);
    if (r.precision() > t.precision()) {
      return null;
    }
    return Decimal.apply(r, t.precision(), t.scale());
  }

  // ---------------------------------------------------------------- functions

  static final class Sum extends FieldAggregator {
    Sum(DataField f, boolean ignoreRetract) {
      super(SUM, f, ignoreRetract);
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        acc = acc == null ? Values.copy(type, in) : add(type, acc, in);
      }
    }

    @Override
    boolean supportsRetract() {
      return true;
    }

    @Override
    boolean retractIsOrderIndependent() {
      return true;
    }

    @Override
    void retract(Object in) {
      if (in != null) {
        acc = acc == null ? negate(type, in) : subtract(type, acc, in);
      }
    }
  }

  static final class Product extends FieldAggregator {
    Product(DataField f, boolean ignoreRetract) {
      super(PRODUCT, f, ignoreRetract);
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        acc = acc == null ? Values.copy(type, in) : multiply(type, acc, in);
      }
    }

    @Override
    boolean supportsRetract() {
      return true;
    }

    @Override
    boolean retractIsOrderIndependent() {
      return true;
    }

    /** Divides; a null accumulator stays null (Paimon docs: "product will return null"). */
    @Override
    void retract(Object in) {
      if (in != null && acc != null) {
        acc = divide(type, acc, in);
      }
    }
  }

  static final class MinMax extends FieldAggregator {
    private final boolean max;

    MinMax(String fn, DataField f, boolean ignoreRetract, boolean max) {
      super(fn, f, ignoreRetract);
      this.max = max;
    }

    @Override
    void agg(Object in) {
      if (in == null) {
        return;
      }
      if (acc == null) {
        acc = Values.copy(type, in);
        return;
      }
      int c = Values.compare(type, in, acc);
      if (max ? c > 0 : c < 0) {
        acc = Values.copy(type, in);
      }
    }
  }

  static final class LastValue extends FieldAggregator {
    LastValue(DataField f, boolean ignoreRetract) {
      super(LAST_VALUE, f, ignoreRetract);
    }

    @Override
    void agg(Object in) {
      acc = Values.copy(type, in);
      seen = true;
    }

    @Override
    void aggReversed(Object in) {
      if (!seen) {
        agg(in);
      }
    }

    @Override
    boolean supportsRetract() {
      return true;
    }

    /** Paimon docs: last_value "just set[s the] field to null" on retraction. */
    @Override
    void retract(Object in) {
      acc = null;
      seen = true;
    }
  }

  static final class LastNonNullValue extends FieldAggregator {
    LastNonNullValue(DataField f, boolean ignoreRetract) {
      super(LAST_NON_NULL_VALUE, f, ignoreRetract);
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        acc = Values.copy(type, in);
      }
    }

    @Override
    void aggReversed(Object in) {
      if (acc == null && in != null) {
        acc = Values.copy(type, in);
      }
    }

    @Override
    boolean supportsRetract() {
      return true;
    }

    @Override
    void retract(Object in) {
      acc = null;
    }
  }

  static final class FirstValue extends FieldAggregator {
    FirstValue(DataField f, boolean ignoreRetract) {
      super(FIRST_VALUE, f, ignoreRetract);
    }

    @Override
    void agg(Object in) {
      if (!seen) {
        acc = Values.copy(type, in);
        seen = true;
      }
    }

    @Override
    void aggReversed(Object in) {
      acc = Values.copy(type, in);
      seen = true;
    }
  }

  static final class FirstNonNullValue extends FieldAggregator {
    FirstNonNullValue(DataField f, boolean ignoreRetract) {
      super(FIRST_NON_NULL_VALUE, f, ignoreRetract);
    }

    @Override
    void agg(Object in) {
      if (acc == null && in != null) {
        acc = Values.copy(type, in);
      }
    }

    @Override
    void aggReversed(Object in) {
      if (in != null) {
        acc = Values.copy(type, in);
      }
    }
  }

  /**
   * Concatenates strings with the column's {@code list-agg-delimiter} (default ","). With
   * {@code fields.<f>.distinct}, a new value contributes only its delimiter-separated tokens that
   * are not blank and not yet present; what is already aggregated is kept as it is.
   */
  static final class ListAgg extends FieldAggregator {
    private final UTF8String delimiter;
    private final boolean distinct;

    ListAgg(DataField f, boolean ignoreRetract, UTF8String delimiter, boolean distinct) {
      super(LISTAGG, f, ignoreRetract);
      this.delimiter = delimiter;
      this.distinct = distinct;
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        acc = acc == null ? ((UTF8String) in).clone() : join((UTF8String) acc, (UTF8String) in);
      }
    }

    @Override
    void aggReversed(Object in) {
      if (in != null) {
        acc = acc == null ? ((UTF8String) in).clone() : join((UTF8String) in, (UTF8String) acc);
      }
    }

    private UTF8String join(UTF8String first, UTF8String second) {
      if (!distinct) {
        return UTF8String.concat(first, delimiter, second);
      }
      List<String> present = tokens(first.toString());
      StringBuilder sb = new StringBuilder(first.toString());
      for (String tok : tokens(second.toString())) {
        if (!tok.trim().isEmpty() && !present.contains(tok)) {
          present.add(tok);
          sb.append(delimiter.toString()).append(tok);
        }
      }
      return UTF8String.fromString(sb.toString());
    }

    private List<String> tokens(String s) {
      List<String> out = new ArrayList<>();
      String d = delimiter.toString();
      if (d.isEmpty()) {
        out.add(s);
        return out;
      }
      int from = 0;
      int at;
      while ((at = s.indexOf(d, from)) >= 0) {
        out.add(s.substring(from, at));
        from = at + d.length();
      }
      out.add(s.substring(from));
      return out;
    }
  }

  static final class Bool extends FieldAggregator {
    private final boolean and;

    Bool(String fn, DataField f, boolean ignoreRetract, boolean and) {
      super(fn, f, ignoreRetract);
      this.and = and;
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        boolean v = (Boolean) in;
        acc = acc == null ? v : (and ? (Boolean) acc && v : (Boolean) acc || v);
      }
    }
  }

  /**
   * Appends array elements; with {@code fields.<f>.distinct} an element already present is not
   * added again. Retraction removes one matching element per retracted element (best effort, as
   * Paimon documents).
   */
  static final class Collect extends FieldAggregator {
    private final boolean distinct;
    private final PaimonType elem;

    Collect(DataField f, boolean ignoreRetract, boolean distinct) {
      super(COLLECT, f, ignoreRetract);
      this.distinct = distinct;
      this.elem = f.type().element();
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        acc = concat((ArrayData) acc, (ArrayData) in);
      }
    }

    @Override
    void aggReversed(Object in) {
      if (in != null) {
        acc = concat((ArrayData) in, (ArrayData) acc);
      }
    }

    private ArrayData concat(ArrayData first, ArrayData second) {
      List<Object> out = new ArrayList<>();
      for (ArrayData a : new ArrayData[] {first, second}) {
        if (a == null) {
          continue;
        }
        for (int i = 0; i < a.numElements(); i++) {
          Object e = Values.elementAt(elem, a, i);
          if (!distinct || indexOf(out, e) < 0) {
            out.add(Values.copy(elem, e));
          }
        }
      }
      return new GenericArrayData(out.toArray());
    }

    private int indexOf(List<Object> list, Object e) {
      for (int i = 0; i < list.size(); i++) {
        if (Values.equal(elem, list.get(i), e)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    boolean supportsRetract() {
      return true;
    }

    @Override
    boolean retractIsOrderIndependent() {
      return true;
    }

    @Override
    void retract(Object in) {
      if (in == null || acc == null) {
        return;
      }
      ArrayData cur = (ArrayData) acc;
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < cur.numElements(); i++) {
        out.add(Values.elementAt(elem, cur, i));
      }
      ArrayData r = (ArrayData) in;
      for (int i = 0; i < r.numElements(); i++) {
        int at = indexOf(out, Values.elementAt(elem, r, i));
        if (at >= 0) {
          out.remove(at);
        }
      }
      acc = new GenericArrayData(out.toArray());
    }
  }

  /**
   * Merges maps, the later map's entry winning for a key present in both. Retraction removes the
   * retracted map's keys (best effort, as Paimon documents).
   */
  static final class MergeMap extends FieldAggregator {
    private final PaimonType keyType;
    private final PaimonType valueType;

    MergeMap(DataField f, boolean ignoreRetract) {
      super(MERGE_MAP, f, ignoreRetract);
      this.keyType = f.type().key();
      this.valueType = f.type().value();
    }

    @Override
    void agg(Object in) {
      if (in != null) {
        acc = merge((MapData) acc, (MapData) in);
      }
    }

    @Override
    void aggReversed(Object in) {
      if (in != null) {
        acc = merge((MapData) in, (MapData) acc);
      }
    }

    private MapData merge(MapData older, MapData newer) {
      List<Object> keys = new ArrayList<>();
      List<Object> vals = new ArrayList<>();
      for (MapData m : new MapData[] {older, newer}) {
        if (m == null) {
          continue;
        }
        ArrayData ks = m.keyArray();
        ArrayData vs = m.valueArray();
        for (int i = 0; i < m.numElements(); i++) {
          Object k = Values.elementAt(keyType, ks, i);
          Object v = Values.copy(valueType, Values.elementAt(valueType, vs, i));
          int at = indexOf(keys, k);
          if (at >= 0) {
            vals.set(at, v);
          } else {
            keys.add(Values.copy(keyType, k));
            vals.add(v);
          }
        }
      }
      return new ArrayBasedMapData(new GenericArrayData(keys.toArray()), new GenericArrayData(vals.toArray()));
    }

    private int indexOf(List<Object> keys, Object k) {
      for (int i = 0; i < keys.size(); i++) {
        if (Values.equal(keyType, keys.get(i), k)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    boolean supportsRetract() {
      return true;
    }

    @Override
    boolean retractIsOrderIndependent() {
      return true;
    }

    @Override
    void retract(Object in) {
      if (in == null || acc == null) {
        return;
      }
      MapData cur = (MapData) acc;
      MapData r = (MapData) in;
      List<Object> rk = new ArrayList<>();
      for (int i = 0; i < r.numElements(); i++) {
        rk.add(Values.elementAt(keyType, r.keyArray(), i));
      }
      List<Object> keys = new ArrayList<>();
      List<Object> vals = new ArrayList<>();
      for (int i = 0; i < cur.numElements(); i++) {
        Object k = Values.elementAt(keyType, cur.keyArray(), i);
        if (indexOf(rk, k) < 0) {
          keys.add(k);
          vals.add(Values.elementAt(valueType, cur.valueArray(), i));
        }
      }
      acc = new ArrayBasedMapData(new GenericArrayData(keys.toArray()), new GenericArrayData(vals.toArray()));
    }
  }
}
