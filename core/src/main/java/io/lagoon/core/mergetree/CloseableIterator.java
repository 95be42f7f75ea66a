package io.lagoon.core.mergetree;

import java.io.Closeable;
import java.util.Iterator;

/** An iterator over an open resource (a data file); close releases it, also before the end. */
public interface CloseableIterator<T> extends Iterator<T>, Closeable {
  @Override
  void close();
}
