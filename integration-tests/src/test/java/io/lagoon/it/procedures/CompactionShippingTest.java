package io.lagoon.it.procedures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.lagoon.it.LagoonSparkTest;
import io.lagoon.spark.compact.BroadcastList;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * A compaction job ships its task list once ({@link BroadcastList}): the tasks of a job share one
 * copy of what their items share, and never the driver's objects.
 */
class CompactionShippingTest extends LagoonSparkTest {
  /** What the items of a job have in common (a table, say). */
  static final class Shared implements Serializable {
    final String name;

    Shared(String name) {
      this.name = name;
    }
  }

  static final class Item implements Serializable {
    final Shared shared;
    final int value;

    Item(Shared shared, int value) {
      this.shared = shared;
      this.value = value;
    }
  }

  @Test
  void tasksTakeTheirOwnItemAndShareOneCopyOfTheRest() {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Shared shared = new Shared("table");
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 6; i++) items.add(new Item(shared, 100 + i));
    BroadcastList<Item> list = BroadcastList.of(jsc, items);
    try {
      List<Integer> indices = List.of(0, 1, 2, 3, 4, 5);
      List<String> seen = jsc.parallelize(indices, 6).map(i -> {
        Item item = list.get(i);
        return i + ":" + item.value + ":" + item.shared.name + ":" + System.identityHashCode(item.shared);
      }).collect();
      Set<String> copies = new HashSet<>();
      for (int i = 0; i < 6; i++) {
        String[] parts = seen.get(i).split(":");
        assertEquals(i + ":" + (100 + i) + ":table", parts[0] + ":" + parts[1] + ":" + parts[2]);
        copies.add(parts[3]);
      }
      assertEquals(1, copies.size(), "one copy of the shared part per executor JVM: " + copies);
      assertNotEquals(String.valueOf(System.identityHashCode(shared)), copies.iterator().next(),
          "tasks never use the driver's objects");
    } finally {
      list.destroy();
    }
    // The next job's list is read as its own, not taken from this JVM's copy of the last one.
    BroadcastList<Item> next = BroadcastList.of(jsc, List.of(new Item(new Shared("other"), 7)));
    try {
      assertEquals(List.of("7:other"), jsc.parallelize(List.of(0), 1).map(i -> next.get(i).value + ":"
          + next.get(i).shared.name).collect());
    } finally {
      next.destroy();
    }
  }
}
