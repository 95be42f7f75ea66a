package io.lagoon.spark.write;

import io.lagoon.core.catalog.PrimaryKeyTableRules;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.engine.RowLevelRules;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.SparkTypes;
import io.lagoon.spark.read.KeyPruningScan;
import io.lagoon.spark.read.LagoonScanBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * DELETE, UPDATE and MERGE on a primary-key table as a delta write keyed by the primary key:
 * deleted rows become retractions of their key, updated rows new versions ({@code +U}), inserted
 * rows additions; the merge engine applies them as any write. The row id carries the
 * {@code sequence.field} columns too, so that a retraction is ordered like the row it removes
 * (Spark wants row id columns NOT NULL: with a nullable sequence field, retractions are refused).
 * What the table's merge engine cannot apply is refused before anything runs.
 */
public final class PkDeltaOperation implements SupportsDelta, PrunableTarget {
  private final FileStoreTable table;
  private final Command command;
  private io.lagoon.spark.read.LagoonScan scan;

  public PkDeltaOperation(FileStoreTable table, Command command) {
    PrimaryKeyTableRules.requireWritable(table.fullName(), table.schema());
    if (command == Command.DELETE) {
      RowLevelRules.requireDeletes(table.fullName(), table.schema(), "DELETE");
      requireRetractableSequence(table, "DELETE");
    } else {
      RowLevelRules.requireUpdates(table.fullName(), table.schema(), command.name());
    }
    this.table = table;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    LagoonScanBuilder b = new LagoonScanBuilder(table, SparkTypes.toSpark(table.schema().fields())).withKeyPruning();
    // A DELETE or UPDATE that keeps rows in their buckets can then skip the shuffle to buckets
    // (the SQL extensions' BucketAlignedWrites); a MERGE joins, so its rows move anyway.
    if (command != Command.MERGE) b.perBucket();
    return b.onBuild(s -> scan = s);
  }

  @Override
  public NamedReference[] rowId() {
    List<String> names = rowIdColumns(table);
    NamedReference[] out = new NamedReference[names.size()];
    for (int i = 0; i < out.length; i++) out[i] = Expressions.column(names.get(i));
    return out;
  }

  /**
   * On a {@code changelog-producer}={@code input} table a retraction's changelog record carries
   * the whole row it removes, as Paimon's writes do (downstream readers of {@code -D} may need its
   * values): every statement asks for the row as read ({@code _row_before}) beside the new values.
   */
  @Override
  public NamedReference[] requiredMetadataAttributes() {
    if (!carriesRowBefore(table)) return new NamedReference[0];
    return new NamedReference[] {Expressions.column(io.lagoon.spark.read.MetadataColumns.ROW_BEFORE)};
  }

  /** Whether retractions carry the row they remove (see {@link #requiredMetadataAttributes}). */
  static boolean carriesRowBefore(FileStoreTable table) {
    if (!table.options().inputChangelog()) return false;
    if (table.schema().fields().stream().anyMatch(f -> f.name().equals(io.lagoon.spark.read.MetadataColumns.ROW_BEFORE))) {
      throw new UnsupportedOperationException("Row-level statements on " + table.fullName() + " are not supported: its column "
          + io.lagoon.spark.read.MetadataColumns.ROW_BEFORE + " hides the metadata column of that name, which carries "
          + "the removed rows into the changelog ('changelog-producer'='input')");
    }
    return true;
  }

  /** The primary key, then the NOT NULL {@code sequence.field} columns that are not part of it. */
  static List<String> rowIdColumns(FileStoreTable table) {
    List<String> out = new ArrayList<>(table.schema().primaryKeys());
    for (String f : sequenceFields(table)) {
      if (!out.contains(f) && !table.schema().field(f).type().nullable()) out.add(f);
    }
    return out;
  }

  private static List<String> sequenceFields(FileStoreTable table) {
    String seq = new MergeOptions(table.schema().options()).get(MergeOptions.SEQUENCE_FIELD);
    List<String> out = new ArrayList<>();
    if (seq != null) for (String f : seq.split(",")) out.add(f.trim());
    return out;
  }

  /**
   * A retraction must carry the sequence-field values of the row it removes, or the merge would
   * order it before that row; only NOT NULL sequence fields can travel in the row id.
   */
  static void requireRetractableSequence(FileStoreTable table, String statement) {
    List<String> ids = rowIdColumns(table);
    for (String f : sequenceFields(table)) {
      if (!ids.contains(f)) {
        throw new UnsupportedOperationException(statement + " is not supported on " + table.fullName()
            + ": its 'sequence.field' column '" + f + "' is nullable, and a deletion must carry the value of the row "
            + "it removes; declare '" + f + "' NOT NULL");
      }
    }
  }

  /** Only the first key column: a file's other values may be shadowed by newer files. */
  @Override
  public boolean prunesBy(String column) {
    return KeyPruningScan.prunableColumns(table).contains(column);
  }

  @Override
  public boolean representUpdateAsDeleteAndInsert() {
    return false;
  }

  @Override
  public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new DeltaWriteBuilder() {
      @Override
      public DeltaWrite build() {
        return new PkDeltaWrite(table, command, () -> scan == null ? -1L
            : scan.snapshot().map(snapshot -> snapshot.id).orElse(0L));
      }
    };
  }
}
