package io.lagoon.core.io;

import org.apache.parquet.column.Dictionary;

/**
 * Where a string read from a Parquet file lies in it: entry {@link #id} of its column chunk's
 * {@link #dictionary}. A rewrite hands this to {@link BinaryDictionaryWriter}, which then numbers
 * the value from the entry without touching or hashing its bytes. Mutable and reused per value.
 */
public final class DictionaryEntry {
  Dictionary dictionary;
  int id;
  Memo memo;

  /** @param memo kept by the reader with {@code dictionary}, one per column chunk dictionary */
  public void set(Dictionary dictionary, int id, Memo memo) {
    this.dictionary = dictionary;
    this.id = id;
    this.memo = memo;
  }

  /** The entry's bytes, copied. */
  public byte[] bytes() {
    return dictionary.decodeToBinary(id).getBytes();
  }

  /**
   * What a writer worked out about one input dictionary (how its entries map to the writer's
   * strings), kept beside that dictionary by its reader, so a writer finds it again without a
   * lookup when a merge switches between inputs from one value to the next.
   */
  public static final class Memo {
    BinaryDictionaryWriter owner;
    int generation;
    int[] keys;
  }

  /**
   * A row that can say which dictionary entry a string field was read from: the row views of a
   * rewrite, down to the Parquet batch the value lies in.
   */
  public interface Source {
    /** Whether field {@code i} (not null) is an entry of its column chunk's dictionary; if so, sets {@code into}. */
    boolean dictionaryEntry(int i, DictionaryEntry into);
  }
}
