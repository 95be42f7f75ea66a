package io.lagoon.spark.compact;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * A job's list of work items, shipped to the executors once rather than once per task. The items
 * of a compaction share most of what they hold (the table, its Hadoop configuration, the reader),
 * which a task per item would serialize, send and deserialize again each time: most of a task's
 * bytes, and, in a short job, enough serialization for the JIT compiler to be busy with it while
 * the tasks run.
 *
 * <p>The list is Java-serialized once on the driver into a broadcast of bytes (whatever serializer
 * Spark is set up with carries bytes); each executor JVM deserializes it once, and its tasks take
 * their own item from that copy. Items must therefore be safe to use from several tasks at once
 * wherever they share objects; compaction tasks only read what they share.
 */
public final class BroadcastList<T extends Serializable> implements Serializable {
  /**
   * Lists recently deserialized in this JVM, by their own key (broadcast ids start again at 0 in
   * each Spark context a JVM runs).
   */
  private static final Map<String, List<?>> READ = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<?>> eldest) {
      return size() > 8;
    }
  };

  private final Broadcast<byte[]> bytes;
  private final String key = UUID.randomUUID().toString();

  private BroadcastList(Broadcast<byte[]> bytes) {
    this.bytes = bytes;
  }

  /** Serializes {@code items} once and broadcasts them; {@link #destroy} once the job is over. */
  public static <T extends Serializable> BroadcastList<T> of(JavaSparkContext jsc, List<T> items) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
      out.writeObject(new ArrayList<>(items));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize the job's tasks: " + e.getMessage(), e);
    }
    return new BroadcastList<>(jsc.broadcast(buffer.toByteArray()));
  }

  /** Item {@code i}, from this JVM's copy of the list (deserialized by the first task asking). */
  @SuppressWarnings("unchecked")
  public T get(int i) {
    synchronized (READ) {
      List<?> list = READ.get(key);
      if (list == null) {
        list = read(bytes.value());
        READ.put(key, list);
      }
      return (T) list.get(i);
    }
  }

  /** Drops the broadcast (driver side, after the job). */
  public void destroy() {
    bytes.destroy();
  }

  private static List<?> read(byte[] data) {
    try (ObjectInputStream in = new TaskClassesInputStream(new ByteArrayInputStream(data))) {
      return (List<?>) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("Cannot read the job's tasks: " + e.getMessage(), e);
    }
  }

  /** Resolves classes with the task thread's loader, which Spark points at the session's jars. */
  private static final class TaskClassesInputStream extends ObjectInputStream {
    TaskClassesInputStream(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      if (loader != null) {
        try {
          return Class.forName(desc.getName(), false, loader);
        } catch (ClassNotFoundException e) {
          // fall back to the default resolution below
        }
      }
      return super.resolveClass(desc);
    }
  }
}
