package dev.cellar.cache.bucket;

import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.io.IOException;

/**
 * The memory or files a {@link BucketCache} stores block bytes in: a flat address space of {@link
 * #capacity()} bytes. The cache's allocator hands out non-overlapping ranges that never cross a
 * bucket boundary, and engines are sized in whole buckets, so no range ever crosses one of an
 * engine's internal pieces (a file of a multi-file engine, for instance).
 *
 * <p>Two kinds: a shared-memory engine ({@link #sharesMemory()}: {@code offheap}, {@code heap},
 * {@code pmem:}) hands readers zero-copy {@link #view views} of its memory carrying the cached
 * entry's reference count; a copying engine ({@code file:}, {@code files:}, {@code mmap:}) {@link
 * #read reads} into a buffer the caller owns. {@link IOEngines#create} makes one from its
 * configured name.
 *
 * <p>Every access outside {@code [0, capacity())} throws {@link IndexOutOfBoundsException} naming
 * the engine, the offset, the length and the capacity.
 *
 * <p>Concurrency: reads and writes of disjoint ranges may run concurrently from any thread. The
 * cache never reads a range while writing it. {@link #close()} must not race other calls.
 */
public interface IOEngine extends AutoCloseable {

  /** The engine's address space in bytes; offsets run from 0 to this. */
  long capacity();

  /** True if the bytes survive a restart of the process (files and mappings). */
  boolean isPersistent();

  /** True if {@link #view} is supported: reads share the engine's memory. */
  boolean sharesMemory();

  /** Copies {@code length} bytes of {@code src} from {@code srcIndex} to {@code offset}. */
  void write(Buf src, int srcIndex, int length, long offset) throws IOException;

  /** Copies {@code length} bytes at {@code offset} into {@code dst} at {@code dstIndex}. */
  void read(long offset, Buf dst, int dstIndex, int length) throws IOException;

  /**
   * A buffer over the {@code length} bytes at {@code offset}, sharing the engine's memory and
   * counting references in {@code refCnt} (the cached entry's count). The view adds no reference:
   * the caller retains {@code refCnt} for it first, and releasing the view drops that reference.
   *
   * @throws UnsupportedOperationException if the engine does not share memory
   */
  Buf view(long offset, int length, RefCnt refCnt);

  /** Makes every write so far durable (a no-op for memory engines). */
  void sync() throws IOException;

  /** What the engine is, as configured: {@code offheap}, {@code file:/path}, ... */
  String description();

  /** Releases the memory or closes the files; the engine is unusable afterwards. */
  @Override
  void close() throws IOException;
}
