package io.lagoon.core.read;

import io.lagoon.core.io.DictionaryEntry;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.parquet.ParquetDictionary;
import org.apache.spark.sql.execution.vectorized.Dictionary;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatchRow;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A top-level string column of Spark's Parquet reader that decodes each dictionary entry once
 * per column chunk. Spark's own vector decodes a dictionary-encoded value on every read, copying
 * its bytes into a new string; a rewrite (DELETE, UPDATE, MERGE, compaction) reads every value,
 * and a column of a few thousand distinct values then copies the same bytes over and over.
 * Strings handed out are shared between rows with the same entry (Spark never changes a string
 * it reads; operators that keep one copy it).
 */
public final class DictionaryStringVector extends ColumnVector {
  /** Spark's vector keeps its dictionary in a protected field, and its Parquet dictionary the file's. */
  private static final VarHandle VECTOR_DICTIONARY = field(WritableColumnVector.class, "dictionary", Dictionary.class);
  private static final VarHandle PARQUET_DICTIONARY = field(ParquetDictionary.class, "dictionary",
      org.apache.parquet.column.Dictionary.class);
  /** The vectors behind a batch's row, which Spark keeps private. */
  private static final VarHandle BATCH_ROW_COLUMNS = field(ColumnarBatchRow.class, "columns", ColumnVector[].class);
  /** Whether this Spark has the fields (else the vector is not wrapped). */
  static final boolean AVAILABLE = VECTOR_DICTIONARY != null && PARQUET_DICTIONARY != null;

  private final WritableColumnVector in;
  /** The column chunk's dictionary the decoded strings belong to. */
  private org.apache.parquet.column.Dictionary chunk;
  /** What a writer remembers about the chunk's dictionary. */
  private DictionaryEntry.Memo memo;
  /** This batch's dictionary; null while the batch holds plain (or already decoded) values. */
  private Dictionary batchDictionary;
  private UTF8String[] decoded;

  DictionaryStringVector(WritableColumnVector in) {
    super(in.dataType());
    this.in = in;
  }

  /** Called for each new batch: Spark sets a new dictionary object per batch, over the chunk's. */
  void nextBatch() {
    Dictionary d = in.hasDictionary() ? (Dictionary) VECTOR_DICTIONARY.get(in) : null;
    if (!(d instanceof ParquetDictionary)) {
      batchDictionary = null;
      return;
    }
    batchDictionary = d;
    org.apache.parquet.column.Dictionary c = (org.apache.parquet.column.Dictionary) PARQUET_DICTIONARY.get(d);
    if (c != chunk) {
      chunk = c;
      decoded = c == null ? null : new UTF8String[c.getMaxId() + 1];
      memo = new DictionaryEntry.Memo();
    }
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    if (batchDictionary == null || decoded == null) return in.getUTF8String(rowId);
    if (in.isNullAt(rowId)) return null;
    int id = in.getDictionaryIds().getDictId(rowId);
    UTF8String s = decoded[id];
    if (s == null) {
      s = UTF8String.fromBytes(batchDictionary.decodeToBinary(id));
      decoded[id] = s;
    }
    return s;
  }

  /**
   * Whether field {@code ordinal} (not null) of {@code row}, a row view over a batch of this
   * reader, is an entry of its column chunk's dictionary; if so, sets {@code into} to it. A
   * rewrite's writer then numbers the value from the entry, without reading the string.
   */
  public static boolean entryOf(InternalRow row, int ordinal, DictionaryEntry into) {
    if (row instanceof ColumnarBatchRow) {
      ColumnVector[] vectors = vectorsOf((ColumnarBatchRow) row);
      return vectors != null && entryOf(vectors[ordinal], ((ColumnarBatchRow) row).rowId, into);
    }
    return row instanceof DictionaryEntry.Source && ((DictionaryEntry.Source) row).dictionaryEntry(ordinal, into);
  }

  /** The same for a row of a vector read directly ({@link #vectorsOf}). */
  public static boolean entryOf(ColumnVector vector, int rowId, DictionaryEntry into) {
    return vector instanceof DictionaryStringVector && ((DictionaryStringVector) vector).entry(rowId, into);
  }

  /** The vectors behind a batch's row view (Spark keeps them private), or null where this Spark has no such field. */
  public static ColumnVector[] vectorsOf(ColumnarBatchRow row) {
    return BATCH_ROW_COLUMNS == null ? null : (ColumnVector[]) BATCH_ROW_COLUMNS.get(row);
  }

  /** The entry {@link #getUTF8String} would decode for this row, while the batch holds dictionary ids. */
  private boolean entry(int rowId, DictionaryEntry into) {
    if (batchDictionary == null || chunk == null) return false;
    into.set(chunk, in.getDictionaryIds().getDictId(rowId), memo);
    return true;
  }

  /** The reader owns the vectors and closes them. */
  @Override public void close() { }
  @Override public boolean hasNull() { return in.hasNull(); }
  @Override public int numNulls() { return in.numNulls(); }
  @Override public boolean isNullAt(int rowId) { return in.isNullAt(rowId); }
  @Override public boolean getBoolean(int rowId) { return in.getBoolean(rowId); }
  @Override public byte getByte(int rowId) { return in.getByte(rowId); }
  @Override public short getShort(int rowId) { return in.getShort(rowId); }
  @Override public int getInt(int rowId) { return in.getInt(rowId); }
  @Override public long getLong(int rowId) { return in.getLong(rowId); }
  @Override public float getFloat(int rowId) { return in.getFloat(rowId); }
  @Override public double getDouble(int rowId) { return in.getDouble(rowId); }
  @Override public ColumnarArray getArray(int rowId) { return in.getArray(rowId); }
  @Override public ColumnarMap getMap(int ordinal) { return in.getMap(ordinal); }
  @Override public Decimal getDecimal(int rowId, int precision, int scale) { return in.getDecimal(rowId, precision, scale); }
  @Override public byte[] getBinary(int rowId) { return in.getBinary(rowId); }
  @Override public ColumnVector getChild(int ordinal) { return in.getChild(ordinal); }

  private static VarHandle field(Class<?> owner, String name, Class<?> type) {
    try {
      return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
