package io.lagoon.spark.read;

import io.lagoon.core.data.BinaryRows;
import io.lagoon.core.scan.DataSplit;
import io.lagoon.core.table.FileStoreTable;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.internal.SQLConf;

/**
 * The layout a scan reports to Spark so that joins and aggregations on the bucket key of
 * fixed-bucket tables run without a shuffle (storage-partitioned join): {@code identity} of each
 * partition column and {@code bucket(N, key)}, every task reading the files of one (partition,
 * bucket). Reported when the session asks for it ({@value #CONF}, as Iceberg's
 * {@code preserve-data-grouping}: grouping by bucket costs parallelism inside a bucket) and where
 * it is correct: fixed buckets, a one-column bucket key (Spark 3.5 passes no other arguments to
 * its bucket transform) of a type whose Spark type fixes Paimon's hash
 * ({@link io.lagoon.spark.functions.SparkBucketFunction}).
 */
final class StoragePartitioning {
  static final String CONF = "spark.sql.lagoon.planning.preserve-data-grouping";
  private static final Set<TypeRoot> SAFE_KEYS = EnumSet.of(TypeRoot.INT, TypeRoot.BIGINT, TypeRoot.SMALLINT,
      TypeRoot.TINYINT, TypeRoot.BOOLEAN, TypeRoot.DOUBLE, TypeRoot.FLOAT, TypeRoot.DATE, TypeRoot.VARCHAR,
      TypeRoot.VARBINARY, TypeRoot.DECIMAL);

  private final FileStoreTable table;
  private final List<PaimonType> partitionTypes;

  private StoragePartitioning(FileStoreTable table) {
    this.table = table;
    this.partitionTypes = table.schema().partitionTypes();
  }

  /** The layout to report, or null. */
  static StoragePartitioning of(FileStoreTable table) {
    if (!Boolean.parseBoolean(SQLConf.get().getConfString(CONF, "false"))) return null;
    if (table.options().bucket() <= 0) return null;
    List<String> keys = table.schema().bucketKeys();
    if (keys.size() != 1) return null;
    DataField key = table.schema().field(keys.get(0));
    if (key == null || !SAFE_KEYS.contains(key.type().root())) return null;
    return new StoragePartitioning(table);
  }

  Expression[] expressions() {
    List<Expression> out = new ArrayList<>();
    for (String p : table.schema().partitionKeys()) out.add(Expressions.identity(quoted(p)));
    out.add(Expressions.bucket(table.options().bucket(), quoted(table.schema().bucketKeys().get(0))));
    return out.toArray(new Expression[0]);
  }

  /** The key of a split's tasks: its partition values, then its bucket. */
  InternalRow key(DataSplit split) {
    GenericInternalRow partition = partitionTypes.isEmpty() ? new GenericInternalRow(0)
        : BinaryRows.deserialize(split.partition, partitionTypes);
    Object[] values = new Object[partitionTypes.size() + 1];
    for (int i = 0; i < partitionTypes.size(); i++) values[i] = partition.genericGet(i);
    values[partitionTypes.size()] = split.bucket;
    return new GenericInternalRow(values);
  }

  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
