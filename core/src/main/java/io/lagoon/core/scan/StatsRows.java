package io.lagoon.core.scan;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.manifest.SimpleStats;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/** Decoded {@link SimpleStats} of a file or manifest over the given columns. */
final class StatsRows implements ColumnStats {
  private final InternalRow min;
  private final InternalRow max;
  private final Long[] nulls;
  private final long rows;
  private final List<PaimonType> types;

  StatsRows(SimpleStats s, List<PaimonType> types, long rowCount) {
    this.types = types;
    this.min = decode(s.minValues(), types);
    this.max = decode(s.maxValues(), types);
    this.nulls = s.nullCounts();
    this.rows = rowCount;
  }

  static List<PaimonType> types(List<DataField> fields) {
    List<PaimonType> t = new ArrayList<>();
    for (DataField f : fields) t.add(f.type());
    return t;
  }

  private static InternalRow decode(byte[] bytes, List<PaimonType> types) {
    if (bytes == null || BinaryRows.arity(bytes) == 0) return null;
    return BinaryRows.deserialize(bytes, rangeTypesOnly(types));
  }

  /** Columns without range stats (nested, binary) decode as null rather than fail. */
  private static List<PaimonType> rangeTypesOnly(List<PaimonType> types) {
    List<PaimonType> out = new ArrayList<>(types.size());
    for (PaimonType t : types) {
      out.add(t.root().isNested() || t.root().isBinary() ? PaimonType.of(TypeRoot.BIGINT) : t);
    }
    return out;
  }

  private Object value(InternalRow r, int c) {
    if (r == null || c >= r.numFields() || r.isNullAt(c)) return null;
    TypeRoot root = types.get(c).root();
    if (root.isNested() || root.isBinary()) return null;
    return r.get(c, io.lagoon.core.types.SparkTypes.toSpark(types.get(c)));
  }

  @Override public Object min(int c) { return value(min, c); }
  @Override public Object max(int c) { return value(max, c); }

  @Override
  public Long nullCount(int c) {
    return nulls == null || c >= nulls.length ? null : nulls[c];
  }

  @Override public long rowCount() { return rows; }

  @Override
  public boolean exact(int c) {
    return !types.get(c).root().isString();
  }
}
