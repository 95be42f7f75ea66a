package io.lagoon.core.fs;

import java.io.DataOutput;
import java.io.IOException;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * A copy of a Hadoop configuration for Spark's file readers, which broadcast the configuration
 * they are given each time one is built. {@link Configuration#write} also stores where each entry
 * came from, gzipping every such string on its own; that made a reader cost about ten milliseconds
 * of driver time per query. This copy writes the same entries in the same layout but without their
 * sources, which {@link Configuration#readFields} takes as unknown.
 */
public final class LeanConfiguration extends Configuration {
  public LeanConfiguration(Configuration base) {
    super(base);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Properties props = getProps();
    synchronized (props) {
      WritableUtils.writeVInt(out, props.size());
      for (Map.Entry<Object, Object> e : props.entrySet()) {
        Text.writeString(out, (String) e.getKey());
        Text.writeString(out, (String) e.getValue());
        out.writeInt(-1); // no sources: what readCompressedStringArray reads as null
      }
    }
  }
}
