package io.lagoon.core.fs;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;

/**
 * A Hadoop Configuration that survives Java serialization (to ship to executors). Only the
 * key-value pairs travel: {@code Configuration.write} also stores where each value came from,
 * gzipping every such string on its own, which costs more than the values themselves and is paid
 * by every task that deserializes one.
 */
// Java serialization also where Spark serializes with Kryo, which cannot rebuild records, immutable
// lists or transient state.
@DefaultSerializer(JavaSerializer.class)
public final class SerializableConfiguration implements Serializable {
  private transient Configuration conf;

  public SerializableConfiguration(Configuration conf) {
    this.conf = conf;
  }

  public Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    List<Map.Entry<String, String>> entries = new ArrayList<>();
    for (Map.Entry<String, String> e : conf) entries.add(e);
    out.writeInt(entries.size());
    for (Map.Entry<String, String> e : entries) {
      Text.writeString(out, e.getKey());
      Text.writeString(out, e.getValue());
    }
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    int n = in.readInt();
    for (int i = 0; i < n; i++) conf.set(Text.readString(in), Text.readString(in));
  }
}
