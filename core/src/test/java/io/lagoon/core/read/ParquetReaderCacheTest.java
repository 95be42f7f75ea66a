package io.lagoon.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Function1;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/**
 * A kept reader function is handed out again only for exactly the inputs it was built from: the
 * same schemas, filters, options, SQL settings and configuration entries give the same function
 * (no new broadcast), and a change to any of them gives a new one that reads by the new inputs.
 */
class ParquetReaderCacheTest {
  private static SparkSession spark;
  @TempDir static File dir;
  private static File file;

  private static final StructType DATA = new StructType().add("id", DataTypes.LongType).add("v", DataTypes.StringType);

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[1]").appName("reader-cache-test")
        .config("spark.ui.enabled", "false").getOrCreate();
    File out = new File(dir, "t");
    spark.range(0, 1000).selectExpr("id", "concat('v', CAST(id % 7 AS STRING)) AS v").coalesce(1)
        .write().parquet(out.getPath());
    for (File f : out.listFiles()) if (f.getName().endsWith(".parquet")) file = f;
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static Function1<PartitionedFile, Iterator<InternalRow>> reader(StructType required, List<Filter> filters,
                                                                           boolean batch, Configuration conf) {
    Map<String, String> opts = new HashMap<>();
    opts.put(FileFormat.OPTION_RETURNING_BATCH(), Boolean.toString(batch));
    return ParquetReaderCache.reader(spark, DATA, required, JavaConverters.asScalaBuffer(filters).toSeq(),
        scala.collection.immutable.Map$.MODULE$.<String, String>empty().$plus$plus(JavaConverters.mapAsScalaMap(opts)),
        conf);
  }

  /** Rows the function reads from the file (batches counted out row by row), and whether they came as batches. */
  private static long[] read(Function1<PartitionedFile, Iterator<InternalRow>> f) {
    PartitionedFile pf = new PartitionedFile(new GenericInternalRow(0),
        SparkPath.fromPath(new org.apache.hadoop.fs.Path(file.toURI())), 0, file.length(), new String[0], 0L,
        file.length(), scala.collection.immutable.Map$.MODULE$.empty());
    Iterator<InternalRow> it = f.apply(pf);
    long rows = 0;
    long batches = 0;
    while (it.hasNext()) {
      Object o = it.next();
      if (o instanceof ColumnarBatch) {
        rows += ((ColumnarBatch) o).numRows();
        batches++;
      } else {
        rows++;
      }
    }
    return new long[] {rows, batches};
  }

  @Test
  void theSameInputsGiveTheSameFunctionAndLeaveTheConfigurationAlone() {
    Configuration conf = new Configuration(false);
    conf.set("lagoon.test.entry", "a");
    int entries = conf.size();
    var first = reader(DATA, List.of(), true, conf);
    var second = reader(DATA, List.of(), true, new Configuration(conf));
    assertSame(first, second);
    assertEquals(entries, conf.size(), "Spark writes its read schema into a copy, never into the caller's configuration");
    assertEquals(1000, read(first)[0]);
  }

  @Test
  void anyChangedInputGivesANewFunctionThatReadsByIt() {
    Configuration conf = new Configuration(false);
    var base = reader(DATA, List.of(), true, conf);
    assertTrue(read(base)[1] > 0, "vectorized: batches");

    // Another configuration entry.
    Configuration changed = new Configuration(conf);
    changed.set("lagoon.test.entry", "b");
    assertNotSame(base, reader(DATA, List.of(), true, changed));

    // Another required schema, filter or option.
    StructType idOnly = new StructType().add("id", DataTypes.LongType);
    assertNotSame(base, reader(idOnly, List.of(), true, conf));
    assertNotSame(base, reader(DATA, List.of(new GreaterThanOrEqual("id", 500L)), true, conf));
    var rows = reader(DATA, List.of(), false, conf);
    assertNotSame(base, rows);

    // A session setting: with the vectorized reader off the new function returns rows, not batches.
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    try {
      var plain = reader(DATA, List.of(), true, conf);
      assertNotSame(base, plain);
      long[] read = read(plain);
      assertEquals(1000, read[0]);
      assertEquals(0, read[1]);
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
    assertSame(base, reader(DATA, List.of(), true, conf), "the setting back as it was finds the first function");
    assertFalse(ParquetReaderCache.size() > 32);
  }

  /**
   * A configuration is broadcast once for the same entries (the readers of ORC and Avro files take
   * it), and anew when an entry differs; the broadcast holds the entries as they were.
   */
  @Test
  void aConfigurationIsBroadcastOncePerSetOfEntries() {
    Configuration conf = new Configuration(false);
    conf.set("lagoon.test.broadcast", "a");
    var first = ConfigurationBroadcasts.of(spark.sparkContext(), conf);
    assertSame(first, ConfigurationBroadcasts.of(spark.sparkContext(), new Configuration(conf)));
    Configuration changed = new Configuration(conf);
    changed.set("lagoon.test.broadcast", "b");
    var second = ConfigurationBroadcasts.of(spark.sparkContext(), changed);
    assertNotSame(first, second);
    assertEquals("a", first.value().get().get("lagoon.test.broadcast"));
    assertEquals("b", second.value().get().get("lagoon.test.broadcast"));
    conf.set("lagoon.test.broadcast", "c");
    assertEquals("a", first.value().get().get("lagoon.test.broadcast"), "a copy: later changes are not seen");
    assertFalse(ConfigurationBroadcasts.size() > 16);
  }
}
