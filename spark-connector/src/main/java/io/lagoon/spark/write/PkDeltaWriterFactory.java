package io.lagoon.spark.write;

import io.lagoon.core.data.ZeroValues;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.engine.RowLevelRules;
import io.lagoon.core.dynamicbucket.AssignerPlan;
import io.lagoon.core.mergetree.write.KeyBuckets;
import io.lagoon.core.mergetree.write.KeyValueTableWriter;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;

/**
 * The per-task writers of a row-level statement on a primary-key table. A deleted row becomes a
 * retraction of its key; an updated row a {@code +U} version, or, when the update moves it to
 * another key, a retraction of the old key and an addition of the new one; an inserted row an
 * addition. Every retraction of the statement is older than every addition
 * ({@link KeyValueTableWriter}'s row-level mode), so rows that swap keys land right.
 */
final class PkDeltaWriterFactory implements DeltaWriterFactory {
  private final FileStoreTable table;
  private final long baseSnapshotId;
  private final KeyValueSource source;
  private final String statement;
  private final AssignerPlan assigners;

  PkDeltaWriterFactory(FileStoreTable table, long baseSnapshotId, KeyValueSource source, AssignerPlan assigners,
                       String statement) {
    this.table = table;
    this.assigners = assigners;
    this.baseSnapshotId = baseSnapshotId;
    this.source = source;
    this.statement = statement;
  }

  @Override
  public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId) {
    return new Writer();
  }

  private final class Writer implements DeltaWriter<InternalRow> {
    private final KeyValueTableWriter writer = new KeyValueTableWriter(table, baseSnapshotId, source, true,
        assigners == null ? null : KeyBuckets.of(assigners, source));
    private final TableSchema schema = table.schema();
    /** Positions in the table row of the row id's columns (key, then sequence fields), and their types. */
    private final int[] idPositions;
    private final DataType[] idTypes;
    private final int keyArity = schema.primaryKeys().size();
    private final boolean sequenceField = new MergeOptions(schema.options()).get(MergeOptions.SEQUENCE_FIELD) != null;
    /** Whether a retraction carries the row it removes, read from {@code _row_before} (changelog tables). */
    private final boolean rowBefore = PkDeltaOperation.carriesRowBefore(table);
    private final DataType[] types;

    Writer() {
      types = new DataType[schema.fields().size()];
      for (int i = 0; i < types.length; i++) types[i] = SparkTypes.toSpark(schema.fields().get(i).type());
      List<String> id = PkDeltaOperation.rowIdColumns(table);
      idPositions = new int[id.size()];
      idTypes = new DataType[id.size()];
      for (int i = 0; i < idPositions.length; i++) {
        idPositions[i] = schema.fieldIndex(id.get(i));
        idTypes[i] = SparkTypes.toSpark(schema.field(id.get(i)).type());
      }
    }

    /**
     * A DELETE was checked when it was planned; an UPDATE or MERGE deletes a row when it moves the
     * row to another key (Spark sends such an update as a delete and an insert) or by a DELETE
     * clause, which only engines that take deletions allow.
     */
    @Override
    public void delete(InternalRow metadata, InternalRow id) throws IOException {
      if (!statement.equals("DELETE")) requireRetractions();
      writer.write(retraction(id, metadata), KeyValue.DELETE);
    }

    private void requireRetractions() {
      String what = statement.equals("UPDATE") ? "UPDATE that changes the primary key" : statement + " that deletes rows";
      RowLevelRules.requireDeletes(table.fullName(), schema, what);
      PkDeltaOperation.requireRetractableSequence(table, what);
      if (statement.equals("UPDATE") && sequenceField) {
        throw new UnsupportedOperationException(what + " is not supported on " + table.fullName() + ": its "
            + "'sequence.field' orders the retraction of the old key against other rows by value, not by the statement");
      }
    }

    @Override
    public void update(InternalRow metadata, InternalRow id, InternalRow row) throws IOException {
      InternalRow version = row.copy();
      if (sameKey(id, version)) {
        writer.write(version, KeyValue.UPDATE_AFTER);
        return;
      }
      // The row moves to another key: the old key goes, the new one comes.
      requireRetractions();
      writer.write(retraction(id, metadata), KeyValue.DELETE);
      writer.write(version, KeyValue.INSERT);
    }

    @Override
    public void insert(InternalRow row) throws IOException {
      writer.write(row.copy(), KeyValue.INSERT);
    }

    /**
     * A retraction row: the row id's values (key and sequence fields) and, in NOT NULL columns,
     * a zero value, so the file stays valid (the merge engine reads nothing else of it); on a
     * changelog table, the removed row's own values ({@code _row_before}), which its changelog
     * record keeps.
     */
    private InternalRow retraction(InternalRow id, InternalRow metadata) {
      List<DataField> fields = schema.fields();
      Object[] values = new Object[fields.size()];
      InternalRow before = rowBefore && metadata != null && !metadata.isNullAt(0) ? metadata.getStruct(0, types.length) : null;
      for (int i = 0; i < values.length; i++) {
        if (before != null) values[i] = before.isNullAt(i) ? null : before.get(i, types[i]);
        else if (!fields.get(i).type().nullable()) values[i] = ZeroValues.of(types[i]);
      }
      for (int i = 0; i < idPositions.length; i++) values[idPositions[i]] = id.isNullAt(i) ? null : id.get(i, idTypes[i]);
      return new GenericInternalRow(values).copy();
    }

    private boolean sameKey(InternalRow id, InternalRow row) {
      for (int i = 0; i < keyArity; i++) {
        Object a = id.isNullAt(i) ? null : id.get(i, idTypes[i]);
        Object b = row.isNullAt(idPositions[i]) ? null : row.get(idPositions[i], idTypes[i]);
        if (a instanceof byte[] && b instanceof byte[] ? !Arrays.equals((byte[]) a, (byte[]) b) : !Objects.equals(a, b)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
      return new PkCommitMessage(writer.finish());
    }

    @Override
    public void abort() {
      writer.abort();
    }

    @Override
    public void close() {
      // files are closed by commit or abort
    }
  }
}
