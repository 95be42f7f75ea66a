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
 * The scan of a copy-on-write DELETE or UPDATE whose condition reads plain columns of the table:
 * each task checks a file for a matching row before reading it ({@link FileMatchProbe}) and leaves
 * out a file without one, which the commit then keeps. So Spark's runtime group filter, a job of its
 * own over every file before the rewrite starts, is not needed; only files with matches are
 * replaced, as with it.
 */
public final class InTaskRewriteScan extends LagoonScan {
  private final Expression condition;
  private final List<Attribute> conditionColumns;
  private FileMatchProbe probe;
  /** The files the tasks left out, as of the last {@link #filesRead}. */
  private Set<String> leftOut = Set.of();

  InTaskRewriteScan(FileStoreTable table, StructType tableSchema, StructType required, List<String> metadata,
                    List<Filter> filters, Expression condition, List<Attribute> conditionColumns) {
    super(table, tableSchema, required, metadata, filters, null, true);
    this.condition = condition;
    this.conditionColumns = conditionColumns;
  }

  @Override
  synchronized FileMatchProbe fileProbe(SparkSession spark, Set<String> formats, Set<Long> schemaIds) {
    probe = FileMatchProbe.build(spark, table(), tableColumns(), filterList(), condition, conditionColumns, formats,
        schemaIds);
    return probe;
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
