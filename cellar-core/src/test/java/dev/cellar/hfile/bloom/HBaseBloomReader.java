package dev.cellar.hfile.bloom;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.hfile.CompoundBloomFilter;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Hash;

/**
 * HBase's own bloom reading path over a meta payload and chunk payloads: {@code
 * CompoundBloomFilter} parses the meta and picks the chunk, {@code BloomFilterUtil.contains} probes
 * it. Building an {@code HFileBlock} would drag in most of HBase, so the proxy {@code HFile.Reader}
 * records which block the filter asked for and fails the read; the probe then runs on the recorded
 * chunk's bytes, exactly as {@code CompoundBloomFilter} would have.
 */
final class HBaseBloomReader {

  /** Thrown by the proxy reader for every chunk read; shared and without a stack trace. */
  private static final IOException CHUNK_REQUESTED = new ChunkRequested();

  private static final class ChunkRequested extends IOException {
    ChunkRequested() {
      super("chunk requested");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  private final CompoundBloomFilter filter;
  private final Map<Long, byte[]> chunksByOffset;
  private final Hash hash;
  private final int hashCount;
  private final boolean rowCol;
  private long requestedOffset;

  HBaseBloomReader(byte[] meta, Map<Long, byte[]> chunksByOffset, boolean rowCol)
      throws IOException {
    this.chunksByOffset = chunksByOffset;
    this.rowCol = rowCol;
    HFile.Reader reader =
        (HFile.Reader)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {HFile.Reader.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("readBlock")) {
                    requestedOffset = (Long) args[0];
                    throw CHUNK_REQUESTED;
                  }
                  throw new AssertionError(
                      "the bloom harness does not expect a call to " + method.getName());
                });
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(meta));
    int version = in.readInt();
    if (version != 3) {
      throw new IllegalArgumentException("Bad bloom filter format version " + version);
    }
    filter = new CompoundBloomFilter(in, reader, null);
    DataInputStream header = new DataInputStream(new ByteArrayInputStream(meta, 12, 8));
    hashCount = header.readInt();
    hash = Hash.getInstance(header.readInt());
  }

  /** HBase's answer for a key built by {@link BloomKeys}. */
  synchronized boolean contains(byte[] key) {
    requestedOffset = -1;
    try {
      boolean found =
          rowCol
              ? filter.contains(
                  new KeyValue.KeyOnlyKeyValue(key, 0, key.length),
                  null,
                  org.apache.hadoop.hbase.regionserver.BloomType.ROWCOL)
              : filter.contains(key, 0, key.length, null);
      if (found) {
        throw new AssertionError("HBase answered without loading a chunk");
      }
      return false;
    } catch (IllegalArgumentException chunkRequested) {
      if (requestedOffset < 0) {
        throw chunkRequested;
      }
      byte[] chunk = chunksByOffset.get(requestedOffset);
      ByteBuff bits = ByteBuff.wrap(ByteBuffer.wrap(chunk));
      return rowCol
          ? BloomFilterUtil.contains(
              new KeyValue.KeyOnlyKeyValue(key, 0, key.length),
              bits,
              0,
              chunk.length,
              hash,
              hashCount,
              org.apache.hadoop.hbase.regionserver.BloomType.ROWCOL)
          : BloomFilterUtil.contains(key, 0, key.length, bits, 0, chunk.length, hash, hashCount);
    }
  }
}
