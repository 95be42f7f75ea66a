package io.lagoon.spark.read;

import io.lagoon.core.table.FileStoreTable;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.SupportsRuntimeV2Filtering;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The read of a copy-on-write MERGE's target condition columns that finds which source rows match
 * (Lagoon's SQL extensions join the source against it to find the NOT MATCHED rows). At run time it
 * takes the source's values of the column the condition equates with the source ({@code key IN
 * (...)}): it reads only the files whose range of the key holds one, and returns only the rows
 * whose key is one of them. The other rows cannot match any source row, so the anti join against
 * what it returns is the anti join against the whole target; without the values it returns every row.
 */
public final class MergeKeysScan extends LagoonScan implements SupportsRuntimeV2Filtering {
  private final String key;
  private final SourceKeys keys;
  private Set<Object> values;

  MergeKeysScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                List<Filter> filters, String key) {
    super(table, tableSchema, required, metadata, filters, null, false);
    this.key = key;
    int index = java.util.Arrays.asList(required.fieldNames()).indexOf(key);
    if (index < 0) throw new IllegalArgumentException("The read of " + table.fullName() + " does not hold " + key);
    this.keys = new SourceKeys(index, required.apply(index).dataType());
  }

  @Override
  public NamedReference[] filterAttributes() {
    return new NamedReference[] {Expressions.column(key)};
  }

  @Override
  public synchronized void filter(Predicate[] predicates) {
    Set<Object> given = SourceKeys.narrow(this, key, predicates, values);
    if (given == values) return;
    values = given;
    keys.ship(values);
  }

  @Override
  public synchronized PartitionReaderFactory createReaderFactory() {
    return new KeyRows(super.createReaderFactory(), keys);
  }

  /** Rows of the files' readers whose key is a source value. */
  private static final class KeyRows implements PartitionReaderFactory {
    private final PartitionReaderFactory files;
    private final SourceKeys keys;

    KeyRows(PartitionReaderFactory files, SourceKeys keys) {
      this.files = files;
      this.keys = keys;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
      return false; // rows are dropped one by one
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      return new Admitted(files.supportColumnarReads(partition) ? files.createColumnarReader(partition)
          : files.createReader(partition), keys);
    }
  }

  /**
   * The rows whose key is a source value, of a reader of rows or of batches (whose rows are the
   * batch's reused row view).
   */
  private static final class Admitted implements PartitionReader<InternalRow> {
    private final PartitionReader<?> in;
    private final SourceKeys keys;
    private ColumnarBatch batch;
    private int next;
    private InternalRow row;

    Admitted(PartitionReader<?> in, SourceKeys keys) {
      this.in = in;
      this.keys = keys;
    }

    @Override
    public boolean next() throws IOException {
      while (true) {
        while (batch != null && next < batch.numRows()) {
          InternalRow r = batch.getRow(next++);
          if (keys.admits(r)) {
            row = r;
            return true;
          }
        }
        if (!in.next()) return false;
        Object got = in.get();
        if (got instanceof ColumnarBatch) {
          batch = (ColumnarBatch) got;
          next = 0;
        } else {
          batch = null;
          if (keys.admits((InternalRow) got)) {
            row = (InternalRow) got;
            return true;
          }
        }
      }
    }

    @Override
    public InternalRow get() {
      return row;
    }

    @Override
    public org.apache.spark.sql.connector.metric.CustomTaskMetric[] currentMetricsValues() {
      return in.currentMetricsValues();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
