package io.lagoon.core.io;

import java.io.IOException;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;

/** Column-chunk dictionaries as a Parquet reader decodes them from a file's dictionary page. */
final class InputDictionaries {
  private static final ColumnDescriptor COLUMN = new ColumnDescriptor(new String[] {"s"},
      Types.optional(PrimitiveType.PrimitiveTypeName.BINARY).named("s"), 0, 1);

  private InputDictionaries() { }

  static Dictionary of(List<byte[]> entries) throws IOException {
    PlainValuesWriter w = new PlainValuesWriter(1024, 64 << 20, new HeapByteBufferAllocator());
    for (byte[] e : entries) w.writeBytes(Binary.fromConstantByteArray(e));
    DictionaryPage page = new DictionaryPage(BytesInput.copy(w.getBytes()), entries.size(), Encoding.PLAIN);
    return Encoding.PLAIN.initDictionary(COLUMN, page);
  }
}
