package dev.cellar.hdfs;

import dev.cellar.io.ReadOnlyFile;
import dev.cellar.memory.Buf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A file on a Hadoop file system read with positional reads ({@code pread}) by any number of
 * threads through one open stream: an HDFS open costs a NameNode round trip, and a stream's {@code
 * pread} is thread-safe and moves no shared position.
 *
 * <p><b>Straight into pooled buffers.</b> Where the stream says {@value
 * StreamCapabilities#PREADBYTEBUFFER} (HDFS's does), a read fills the destination's own NIO views,
 * so an off-heap pooled buffer receives the bytes without passing through the heap (HBase's rule in
 * {@code BlockIOUtils}). Otherwise each read goes through a heap array of its size and is copied
 * (as always with {@code cellar.hdfs.pread.bytebuffer=false}); {@link #heapFallbackBytes()} counts
 * those bytes for every file.
 *
 * <p><b>Checksums.</b> The stream is opened on a client with HDFS checksum verification off: Cellar
 * verifies every block itself, and checking twice costs CPU on every read. When Cellar's checksums
 * fail, {@link #readFullyVerifiedByStorage} reads the range again through a second stream with HDFS
 * verification on (opened on first need), which detects a corrupt replica, reports it to the
 * NameNode and reads another one.
 *
 * <p>Thread-safe. {@link #close()} closes both streams; reads in flight then fail.
 */
final class HadoopReadOnlyFile extends ReadOnlyFile {

  private static final LongAdder HEAP_FALLBACK_BYTES = new LongAdder();

  private final Path file;
  private final FSDataInputStream in;
  private final boolean direct;
  private final FileSystem verifying;
  private final Object verifiedLock = new Object();

  /** Guarded by verifiedLock; opened on first need. */
  private FSDataInputStream verified;

  /**
   * @param preadIntoBuffers whether to read into the destination's buffers when the stream can;
   *     false always copies through the heap
   */
  HadoopReadOnlyFile(
      java.nio.file.Path path,
      Path file,
      FSDataInputStream in,
      FileSystem verifying,
      boolean preadIntoBuffers) {
    super(path);
    this.file = file;
    this.in = in;
    this.direct = preadIntoBuffers && in.hasCapability(StreamCapabilities.PREADBYTEBUFFER);
    this.verifying = verifying;
  }

  /** Bytes read through a heap array because a stream could not read into a buffer directly. */
  static long heapFallbackBytes() {
    return HEAP_FALLBACK_BYTES.sum();
  }

  /** Whether reads go straight into the destination's buffers. */
  boolean readsDirectly() {
    return direct;
  }

  /** The file's full URI. */
  @Override
  public String describe() {
    return file.toString();
  }

  @Override
  public long size() throws IOException {
    return verifying.getFileStatus(file).getLen();
  }

  @Override
  public void readFully(long position, Buf dst, int dstIndex, int length) throws IOException {
    int read = read(in, position, dst, dstIndex, length);
    if (read < length) {
      throw new EOFException(
          file
              + ": wanted "
              + length
              + " bytes at offset "
              + position
              + " but the file ends at "
              + (position + read));
    }
  }

  @Override
  public int read(long position, Buf dst, int dstIndex, int length) throws IOException {
    return read(in, position, dst, dstIndex, length);
  }

  @Override
  public boolean readFullyVerifiedByStorage(long position, Buf dst, int dstIndex, int length)
      throws IOException {
    FSDataInputStream stream;
    synchronized (verifiedLock) {
      if (verified == null) {
        verified = verifying.open(file);
      }
      stream = verified;
    }
    int read = read(stream, position, dst, dstIndex, length);
    if (read < length) {
      throw new EOFException(
          file
              + ": wanted "
              + length
              + " bytes at offset "
              + position
              + " but the file ends at "
              + (position + read));
    }
    return true;
  }

  /** Reads until {@code length} bytes or the end of the file; returns the bytes read. */
  private int read(FSDataInputStream stream, long position, Buf dst, int dstIndex, int length)
      throws IOException {
    long at = position;
    for (ByteBuffer target : dst.writableByteBuffers(dstIndex, length)) {
      int read = direct ? readDirect(stream, at, target) : readThroughHeap(stream, at, target);
      at += read;
      if (target.hasRemaining()) {
        break;
      }
    }
    return (int) (at - position);
  }

  private static int readDirect(FSDataInputStream stream, long position, ByteBuffer target)
      throws IOException {
    int start = target.position();
    while (target.hasRemaining()) {
      if (stream.read(position + target.position() - start, target) < 0) {
        break;
      }
    }
    return target.position() - start;
  }

  private static int readThroughHeap(FSDataInputStream stream, long position, ByteBuffer target)
      throws IOException {
    byte[] heap = new byte[target.remaining()];
    int filled = 0;
    while (filled < heap.length) {
      int read = stream.read(position + filled, heap, filled, heap.length - filled);
      if (read < 0) {
        break;
      }
      filled += read;
    }
    target.put(heap, 0, filled);
    HEAP_FALLBACK_BYTES.add(filled);
    return filled;
  }

  @Override
  public void close() throws IOException {
    try {
      in.close();
    } finally {
      synchronized (verifiedLock) {
        if (verified != null) {
          verified.close();
        }
      }
    }
  }
}
