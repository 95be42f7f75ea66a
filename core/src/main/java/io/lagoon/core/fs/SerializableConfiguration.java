package io.lagoon.core.fs;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/** A Hadoop Configuration that survives Java serialization (to ship to executors). */
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
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
