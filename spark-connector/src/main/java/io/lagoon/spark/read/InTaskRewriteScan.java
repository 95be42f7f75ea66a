package io.lagoon.spark.read;

import io.lagoon.core.table.FileStoreTable;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * The scan of a copy-on-write DELETE or UPDATE whose condition reads plain columns of the table
 * (and, with the source's key values, of a MERGE: {@link MergeRewriteScan}):
 * each task checks a file for a matching row before reading it ({@link FileMatchProbe}) and leaves
 * out a file without one, which the commit then keeps. So Spark's runtime group filter, a job of its
 * own over every file before the rewrite starts, is not needed; only files with matches are
 * replaced, as with it.
 */
public class InTaskRewriteScan extends LagoonScan {
  private final Expression condition;
  private final List<Attribute> conditionColumns;
  /** The column whose values a MERGE's source holds, given at run time (see {@link MergeRewriteScan}); null for none. */
  private final String key;
  private FileMatchProbe probe;
  /** The files the tasks left out, as of the last {@link #filesRead}. */
  private Set<String> leftOut = Set.of();

  InTaskRewriteScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                    List<Filter> filters, Expression condition, List<Attribute> conditionColumns, String key) {
    super(table, tableSchema, required, metadata, filters, null, true);
    this.condition = condition;
    this.conditionColumns = conditionColumns;
    this.key = key;
  }

  /**
   * The table columns a condition reads, when the tasks can check it on a file's rows (plain
   * top-level columns of the table, no CHAR/VARCHAR padding); null when they cannot.
   */
  public static List<Attribute> checkedColumns(StructType tableSchema, Expression condition) {
    return FileMatchProbe.columnsOf(tableSchema, condition);
  }

  /** Whether the tasks can look a file's values of a column of this type up in a MERGE source's set. */
  public static boolean keyTypeSupported(org.apache.spark.sql.types.DataType type) {
    return SourceKeys.supported(type);
  }

  @Override
  synchronized FileMatchProbe fileProbe(SparkSession spark, Set<String> formats, Set<Long> schemaIds) {
    probe = FileMatchProbe.build(spark, table(), tableColumns(), filterList(), condition, conditionColumns, key,
        formats, schemaIds);
    probeBuilt(probe);
    return probe;
  }

  /** The column whose values a MERGE's source holds; null for none. */
  String key() {
    return key;
  }

  /** Hook for a subclass that feeds the probe values found at run time. */
  void probeBuilt(FileMatchProbe built) {
  }

  /** After the tasks ended: the files they read, without those they left out (which stay live). */
  @Override
  public synchronized List<io.lagoon.core.manifest.ManifestEntry> filesRead() {
    leftOut = probe == null ? Set.of() : probe.keptFiles();
    return super.filesRead();
  }

  @Override
  synchronized boolean leftOutInTasks(String path) {
    return leftOut.contains(path);
  }
}
