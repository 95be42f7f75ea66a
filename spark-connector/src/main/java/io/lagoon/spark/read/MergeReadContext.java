package io.lagoon.spark.read;

import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueFileReader;
import io.lagoon.core.mergetree.KeyValueLayout;
import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.engine.MergeEngine;
import io.lagoon.core.mergetree.engine.MergeFunctions;
import io.lagoon.core.mergetree.engine.MergeOptions;
import io.lagoon.core.mergetree.read.DeduplicateBatchMerge;
import io.lagoon.core.mergetree.read.MergeReadColumns;
import io.lagoon.core.mergetree.read.MergeTreeReader;
import io.lagoon.core.schema.TableSchema;
import io.lagoon.core.table.FileStoreTable;
import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.hadoop.fs.Path;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What executors need to merge sections of a primary-key table: the key-value file reader (built
 * on the driver, reading only the value columns the merge needs), the schema that the merge
 * function and record order are rebuilt from, and where each output column sits in a value row.
 */
final class MergeReadContext implements Serializable {
  private final KeyValueFileReader source;
  /** Reads the same columns as batches, for {@link DeduplicateBatchMerge}; null when it does not apply. */
  // source (above) is null when the columnar merge takes every section of the scan
  private final KeyValueFileReader columnar;
  private final TableSchema schema;
  final StructType required;
  final int[] outputPositions;
  final DataType[] outputTypes;

  private MergeReadContext(KeyValueFileReader source, KeyValueFileReader columnar, TableSchema schema,
                           StructType required, int[] outputPositions) {
    this.source = source;
    this.columnar = columnar;
    this.schema = schema;
    this.required = required;
    this.outputPositions = outputPositions;
    this.outputTypes = new DataType[outputPositions.length];
    for (int i = 0; i < outputPositions.length; i++) outputTypes[i] = required.fields()[i].dataType();
  }

  /**
   * @param batch whether the scan returns batches
   * @param sections the sections of each merge partition of the scan: when the columnar merge
   *     takes all of them the row reader is not built (each reader broadcasts a configuration)
   */
  static MergeReadContext build(SparkSession spark, FileStoreTable table, StructType required, Set<String> formats,
                                boolean batch, List<List<Section>> sections) {
    TableSchema schema = table.schema();
    Set<String> projected = new LinkedHashSet<>();
    int[] positions = new int[required.fields().length];
    for (int i = 0; i < positions.length; i++) {
      StructField f = required.fields()[i];
      projected.add(f.name());
      positions[i] = schema.fieldIndex(f.name());
      if (positions[i] < 0) throw new IllegalArgumentException("Column '" + f.name() + "' is not in table " + table.fullName());
    }
    Set<String> valueColumns = MergeReadColumns.valueColumns(schema, projected);
    KeyValueFileReader columnar = null;
    if (columnarDeduplicate(schema) && KeyValueFileReader.supportsBatches(spark, table, valueColumns)) {
      columnar = KeyValueFileReader.buildColumnar(spark, table, valueColumns, formats);
    }
    boolean columnarTakesAll = batch && columnar != null;
    for (List<Section> p : sections) columnarTakesAll &= DeduplicateBatchMerge.fits(p);
    KeyValueFileReader rows = columnarTakesAll ? null : KeyValueFileReader.build(spark, table, valueColumns, formats);
    return new MergeReadContext(rows, columnar, schema, required, positions);
  }

  /**
   * Whether {@link DeduplicateBatchMerge} gives this table's merge: deduplicate whose last record
   * wins (no {@code ignore-delete}), ordered by sequence number alone, one integral key.
   */
  private static boolean columnarDeduplicate(TableSchema schema) {
    if (new MergeOptions(schema.options()).engine() != MergeEngine.DEDUPLICATE) return false;
    if (!MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys()).resultIsLastRecord()) return false;
    if (MergeFunctions.recordOrder(schema.options(), schema.fields()).hasSequenceFields()) return false;
    return new KeyComparator(new KeyValueLayout(schema).keyTypes()).singleKeyWidth() != 0;
  }

  /**
   * The columnar merge of a partition's sections, when it applies to the table and every section
   * has few enough runs; else null (the row path: {@link #newReader}).
   */
  DeduplicateBatchMerge newBatchMerge(Path bucketDir, List<Section> sections) {
    if (columnar == null || !DeduplicateBatchMerge.fits(sections)) return null;
    int[] sources = new int[outputPositions.length];
    for (int i = 0; i < sources.length; i++) sources[i] = columnar.columnOf(outputPositions[i]);
    int width = new KeyComparator(new KeyValueLayout(schema).keyTypes()).singleKeyWidth();
    return new DeduplicateBatchMerge(columnar, bucketDir, sections, width, sources);
  }

  /** A fresh reader (merge functions keep state, so one per task). */
  MergeTreeReader newReader() {
    if (source == null) throw new IllegalStateException("Every section was planned for the columnar merge");
    return new MergeTreeReader(source, new KeyComparator(new KeyValueLayout(schema).keyTypes()),
        MergeFunctions.recordOrder(schema.options(), schema.fields()),
        MergeFunctions.create(schema.options(), schema.fields(), schema.primaryKeys()));
  }
}
