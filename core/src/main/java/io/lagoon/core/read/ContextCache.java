package io.lagoon.core.read;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;

/**
 * Driver-side values built for a Spark context from some inputs (a reader function, a broadcast),
 * handed out again for equal inputs: the least recently used beyond a capacity are dropped, and so
 * are those of a stopped context, which must not be kept alive here.
 */
final class ContextCache<V> {
  private final Map<Key, V> values;

  ContextCache(int capacity) {
    values = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, V> e) {
        return size() > capacity;
      }
    };
  }

  /** The value for {@code context} and {@code inputs} (compared by {@code equals}), built if new. */
  V get(SparkContext context, Object[] inputs, Supplier<V> build) {
    Key key = new Key(context, inputs);
    synchronized (values) {
      V v = values.get(key);
      if (v != null && !context.isStopped()) return v;
    }
    V built = build.get();
    synchronized (values) {
      values.keySet().removeIf(k -> k.context.isStopped());
      values.put(key, built);
    }
    return built;
  }

  /** A configuration's entries, as an input that compares by value. */
  static Map<String, String> entries(org.apache.hadoop.conf.Configuration conf) {
    Map<String, String> out = new java.util.HashMap<>();
    for (Map.Entry<String, String> e : conf) out.put(e.getKey(), e.getValue());
    return out;
  }

  int size() {
    synchronized (values) {
      return values.size();
    }
  }

  private static final class Key {
    final SparkContext context;
    final Object[] inputs;
    final int hash;

    Key(SparkContext context, Object[] inputs) {
      this.context = context;
      this.inputs = inputs;
      this.hash = System.identityHashCode(context) * 31 + Arrays.hashCode(inputs);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) return false;
      Key k = (Key) o;
      return k.context == context && hash == k.hash && Arrays.equals(inputs, k.inputs);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
