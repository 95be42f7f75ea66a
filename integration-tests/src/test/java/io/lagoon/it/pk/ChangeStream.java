package io.lagoon.it.pk;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A reproducible stream of changes to a primary-key table with columns
 * {@code (id INT, a INT, b STRING, c BIGINT, ts BIGINT, op STRING)}, cut into rounds (one INSERT
 * each). Within a round a key appears at most once, so the order inside an INSERT never matters;
 * across rounds order is the round order. The whole stream is also a temporary view
 * {@code changes} with a column {@code seq} (global order), from which tests compute the expected
 * table with plain Spark.
 */
public final class ChangeStream {
  /** One change; null columns stay null. */
  public static final class Change {
    final int id;
    final Integer a;
    final String b;
    final Long c;
    final long ts;
    final String op;
    final long seq;

    Change(int id, Integer a, String b, Long c, long ts, String op, long seq) {
      this.id = id;
      this.a = a;
      this.b = b;
      this.c = c;
      this.ts = ts;
      this.op = op;
      this.seq = seq;
    }

    String values() {
      return String.format(Locale.ROOT, "(%d, %s, %s, %s, %d, '%s')", id, a, b == null ? "NULL" : "'" + b + "'",
          c == null ? "NULL" : c + "L", ts, op);
    }
  }

  public final List<List<Change>> rounds = new ArrayList<>();

  /**
   * @param kinds picks the op of each change from a random draw in [0,1)
   * @param nullRate how often a value column is null
   */
  public ChangeStream(long seed, int rounds, int keys, int perRound, double nullRate, Function<Double, String> kinds) {
    Random r = new Random(seed);
    long seq = 0;
    // A retraction only for a key written before: Paimon passes a key's lone record through
    // unmerged and drops a lone retraction, so one on an unknown key would count or not
    // depending on how records were grouped into files.
    java.util.Set<Integer> written = new java.util.HashSet<>();
    for (int i = 0; i < rounds; i++) {
      List<Change> round = new ArrayList<>();
      List<Integer> pool = new ArrayList<>();
      for (int k = 0; k < keys; k++) pool.add(k);
      java.util.Collections.shuffle(pool, r);
      for (int j = 0; j < Math.min(perRound, keys); j++) {
        int id = pool.get(j);
        Integer a = r.nextDouble() < nullRate ? null : r.nextInt(1000) - 300;
        String b = r.nextDouble() < nullRate ? null : "s" + r.nextInt(50);
        Long c = r.nextDouble() < nullRate ? null : (long) r.nextInt(100000);
        long ts = r.nextInt(1000); // out of order on purpose
        String op = kinds.apply(r.nextDouble());
        if (op.startsWith("-") && !written.contains(id)) op = "+I";
        written.add(id);
        round.add(new Change(id, a, b, c, ts, op, seq++));
      }
      this.rounds.add(round);
    }
  }

  /** {@code INSERT INTO table VALUES ...} of round i. */
  public String insert(String table, int i) {
    List<String> v = new ArrayList<>();
    for (Change c : rounds.get(i)) v.add(c.values());
    return "INSERT INTO " + table + " VALUES " + String.join(", ", v);
  }

  /** Registers the temporary view {@code changes(id, a, b, c, ts, op, seq)}. */
  public void register(SparkSession spark) {
    StructType schema = new StructType().add("id", DataTypes.IntegerType).add("a", DataTypes.IntegerType)
        .add("b", DataTypes.StringType).add("c", DataTypes.LongType).add("ts", DataTypes.LongType)
        .add("op", DataTypes.StringType).add("seq", DataTypes.LongType);
    List<org.apache.spark.sql.Row> rows = new ArrayList<>();
    for (List<Change> round : rounds) {
      for (Change c : round) rows.add(RowFactory.create(c.id, c.a, c.b, c.c, c.ts, c.op, c.seq));
    }
    spark.createDataFrame(rows, schema).createOrReplaceTempView("changes");
  }
}
