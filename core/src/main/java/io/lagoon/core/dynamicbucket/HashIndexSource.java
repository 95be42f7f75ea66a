package io.lagoon.core.dynamicbucket;

import java.io.IOException;

/** The key hashes of a partition's HASH index, by bucket, as of the snapshot a write starts from. */
public interface HashIndexSource {
  /** Receives one key hash of a bucket. */
  interface Visitor {
    void accept(int bucket, int hash);
  }

  /** Calls {@code v} with every (bucket, hash) of the partition's index; none for a new partition. */
  void forEach(byte[] partition, Visitor v) throws IOException;
}
