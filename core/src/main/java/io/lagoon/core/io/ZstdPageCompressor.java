package io.lagoon.core.io;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses a Parquet writer's pages with zstd at the level its table asks for, one compression
 * context reused for every page of the file.
 *
 * <p>Why not Parquet's own: its codec factory keeps one zstd codec per JVM, created with the
 * configuration of whichever reader or writer asked first, so the level of every later file is
 * that first caller's (Parquet's default 3 when a read came first), and {@code
 * file.compression.zstd-level} was silently ignored. Its codec also sets up a new stream, with
 * fresh buffers, for every page.
 *
 * <p>Parquet's writer takes its compressor only from that factory; {@link #install} replaces it in
 * a writer just built (before any row), by reflection. Where that fails (another Parquet version)
 * the writer keeps Parquet's compressor: the same format, perhaps another level.
 */
final class ZstdPageCompressor extends CodecFactory.BytesCompressor {
  private static final Field WRITER = field(ParquetWriter.class, "writer");
  private static final Field COMPRESSOR = WRITER == null ? null : compressorField(WRITER.getType());
  private static final Method INIT_STORE = WRITER == null ? null : method(WRITER.getType(), "initStore");

  private final ZstdCompressCtx context;
  private final Buffer input = new Buffer();
  private byte[] output = new byte[0];

  private ZstdPageCompressor(int level, int workers) {
    context = new ZstdCompressCtx().setLevel(level);
    if (workers > 0) context.setWorkers(workers);
  }

  /**
   * Has {@code writer}, which must not have written a row yet, compress with a new compressor.
   *
   * @return the compressor, to {@link #release} once the writer is closed; null when Parquet's
   *     own stays
   */
  static ZstdPageCompressor install(ParquetWriter<?> writer, int level, int workers) throws IOException {
    if (COMPRESSOR == null || INIT_STORE == null) return null;
    ZstdPageCompressor compressor = new ZstdPageCompressor(level, workers);
    try {
      Object internal = WRITER.get(writer);
      COMPRESSOR.set(internal, compressor);
      // The column stores were made with Parquet's compressor: make them again, empty, with this one.
      INIT_STORE.invoke(internal);
      return compressor;
    } catch (ReflectiveOperationException | RuntimeException e) {
      compressor.release();
      throw new IOException("Could not set up zstd compression of a Parquet writer", e);
    }
  }

  @Override
  public BytesInput compress(BytesInput bytes) throws IOException {
    input.reset();
    bytes.writeAllTo(input);
    int bound = (int) Zstd.compressBound(input.size());
    if (output.length < bound) output = new byte[Math.max(bound, output.length * 2)];
    int n = context.compressByteArray(output, 0, output.length, input.bytes(), 0, input.size());
    // Parquet's own compressor also hands out its reused buffer: the page is copied before the next.
    return BytesInput.from(output, 0, n);
  }

  @Override
  public CompressionCodecName getCodecName() {
    return CompressionCodecName.ZSTD;
  }

  @Override
  public void release() {
    context.close();
  }

  /** A byte stream whose array is read in place. */
  private static final class Buffer extends ByteArrayOutputStream {
    byte[] bytes() {
      return buf;
    }
  }

  private static Field field(Class<?> owner, String name) {
    try {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static Field compressorField(Class<?> internalWriter) {
    Field f = field(internalWriter, "compressor");
    return f != null && f.getType().isAssignableFrom(ZstdPageCompressor.class) ? f : null;
  }

  private static Method method(Class<?> owner, String name) {
    try {
      Method m = owner.getDeclaredMethod(name);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
