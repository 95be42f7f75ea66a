package io.lagoon.spark.read;

import io.lagoon.core.read.DataFileReader;
import io.lagoon.core.table.FileStoreTable;
import java.io.Closeable;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.BasePredicate;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Predicate$;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.CollectionAccumulator;

/**
 * Decides inside a copy-on-write task whether a data file holds a row matching the statement's
 * condition, before the file is read whole: it reads only the condition's columns (row groups
 * the pushed filters rule out skipped), evaluates the condition as Spark does, and stops at the
 * first match. A file without one is not read, so none of its rows is written back, and it is
 * recorded as kept ({@link #keptFiles}): the commit leaves it in place. This does in the tasks what
 * Spark's runtime group filter does in a job of its own before the rewrite: find the files with a
 * row for which the condition is true.
 */
final class FileMatchProbe implements Serializable {
  private final DataFileReader reader;
  /** The condition, bound to the rows the reader returns. */
  private final Expression bound;
  private final CollectionAccumulator<String> kept;
  /** The source's values of the column a MERGE equates with it; null for none. */
  private final SourceKeys keys;
  private transient BasePredicate predicate;
  /** Spark's metadata key of CHAR/VARCHAR columns, whose values Spark pads or checks when it reads them. */
  private static final String CHAR_VARCHAR = "__CHAR_VARCHAR_TYPE_STRING";

  private FileMatchProbe(DataFileReader reader, Expression bound, CollectionAccumulator<String> kept, SourceKeys keys) {
    this.reader = reader;
    this.bound = bound;
    this.kept = kept;
    this.keys = keys;
  }

  /**
   * The table columns the condition reads, in table order, when it reads only plain top-level
   * columns of the table as Spark sees them (no metadata column, no CHAR/VARCHAR padding); else null.
   */
  static List<Attribute> columnsOf(StructType tableSchema, Expression condition) {
    List<Attribute> refs = new ArrayList<>(
        scala.collection.JavaConverters.seqAsJavaListConverter(condition.references().toSeq()).asJava());
    if (refs.isEmpty()) return null;
    List<Attribute> out = new ArrayList<>();
    for (StructField f : tableSchema.fields()) {
      for (Attribute a : refs) {
        if (!a.name().equals(f.name())) continue;
        if (!a.dataType().sameType(f.dataType())
            || f.metadata().contains(CHAR_VARCHAR)) {
          return null;
        }
        out.add(a);
      }
    }
    return out.size() == refs.size() ? out : null;
  }

  /**
   * Built on the driver for the formats and schema versions of the files the scan plans.
   *
   * @param key the column (one of {@code columns}) whose values a MERGE's source holds, to be
   *     given at run time ({@link #sourceKeys}); null for none
   */
  static FileMatchProbe build(SparkSession spark, FileStoreTable table, StructType tableSchema, List<Filter> filters,
                              Expression condition, List<Attribute> columns, String key, Set<String> formats,
                              Set<Long> schemaIds) {
    StructType required = new StructType();
    for (Attribute a : columns) required = required.add(tableSchema.apply(a.name()));
    DataFileReader reader = DataFileReader.build(spark, tableSchema, required, filters,
        new org.apache.hadoop.conf.Configuration(table.io().hadoopConf()), false, formats);
    try {
      reader.withOlderSchemas(schemaIds, table.schema().id(), table.schema().fields(), id -> table.schema(id).fields(),
          "table " + table.fullName());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("Cannot read the schemas of " + table.fullName() + ": " + e.getMessage(), e);
    }
    Expression bound = bind(condition, columns);
    CollectionAccumulator<String> kept = spark.sparkContext().collectionAccumulator(
        "lagoon: files of " + table.fullName() + " without a matching row");
    int keyIndex = -1;
    for (int i = 0; key != null && i < columns.size(); i++) if (columns.get(i).name().equals(key)) keyIndex = i;
    if (key != null && keyIndex < 0) throw new IllegalArgumentException("The key " + key + " is not a probed column");
    return new FileMatchProbe(reader, bound, kept, keyIndex < 0 ? null : new SourceKeys(keyIndex,
        columns.get(keyIndex).dataType()));
  }

  /** Where the driver puts a MERGE source's values of the key (null for a probe without a key). */
  SourceKeys sourceKeys() {
    return keys;
  }

  /** The condition reading its columns by position in the probe's rows (as Spark binds them). */
  private static Expression bind(Expression condition, List<Attribute> columns) {
    return condition.transform(new scala.runtime.AbstractPartialFunction<Expression, Expression>() {
      @Override
      public boolean isDefinedAt(Expression e) {
        return e instanceof Attribute && indexOf(columns, (Attribute) e) >= 0;
      }

      @Override
      public Expression apply(Expression e) {
        Attribute a = (Attribute) e;
        return new BoundReference(indexOf(columns, a), a.dataType(), a.nullable());
      }
    });
  }

  private static int indexOf(List<Attribute> columns, Attribute a) {
    for (int i = 0; i < columns.size(); i++) if (columns.get(i).exprId().equals(a.exprId())) return i;
    return -1;
  }

  /** Whether some row of the whole file matches the condition. */
  boolean matches(String path, long fileSize, long schemaId) throws IOException {
    if (predicate == null) {
      predicate = Predicate$.MODULE$.createInterpreted(bound);
      predicate.initialize(0);
    }
    scala.collection.Iterator<InternalRow> rows = reader.open(new Path(path), 0, fileSize, fileSize, null, n -> { },
        schemaId);
    try {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        if (keys != null && !keys.admits(row)) continue;
        if (predicate.eval(row)) return true;
      }
      return false;
    } finally {
      if (rows instanceof Closeable) ((Closeable) rows).close();
    }
  }

  /** Records a file the task did not read: no row of it matches. */
  void keep(String path) {
    kept.add(path);
  }

  /** Driver side, after the tasks ended: the paths of the files no row of which matched. */
  Set<String> keptFiles() {
    return new HashSet<>(kept.value());
  }
}
