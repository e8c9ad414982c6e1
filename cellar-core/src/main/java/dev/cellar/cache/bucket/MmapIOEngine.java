package dev.cellar.cache.bucket;

import dev.cellar.io.MappedFile;
import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The {@code mmap:} and {@code pmem:} engines: one file of the capacity mapped read-write into a
 * single {@link MemorySegment}.
 *
 * <p>The two differ only in how reads return bytes, as HBase's ExclusiveMemoryMmapIOEngine and
 * SharedMemoryMmapIOEngine do. {@code mmap:} copies into the caller's buffer: page-cache pages can
 * be evicted or swapped, so readers get memory of their own. {@code pmem:} (meant for persistent
 * memory, where the mapping is the memory) hands out zero-copy views carrying the cached entry's
 * {@link RefCnt}.
 *
 * <p><b>Memory and persistence.</b> The mapping is one long-lived shared arena owned by a {@link
 * MappedFile}; {@link #close()} unmaps it, after which views are invalid. Persistent: with {@code
 * keepExisting}, a file already of the right size is mapped as it is; otherwise it is created
 * again. {@link #sync()} writes modified pages back to the file.
 *
 * <p><b>Concurrency.</b> No state beyond the mapping: disjoint ranges may be read, written and
 * viewed from any thread at once. {@link #close()} must not race other calls; an access after it
 * throws {@link IllegalStateException}.
 */
public final class MmapIOEngine implements IOEngine {

  private final MappedFile file;
  private final MemorySegment memory;
  private final boolean sharesMemory;

  /**
   * Maps {@code path} as a file of {@code capacity} bytes.
   *
   * @param keepExisting keep a file that already has the right size (a warm restart)
   * @param sharesMemory true for {@code pmem:} (zero-copy views), false for {@code mmap:} (reads
   *     copy)
   */
  public MmapIOEngine(Path path, long capacity, boolean keepExisting, boolean sharesMemory)
      throws IOException {
    this.file = MappedFile.open(path, capacity, keepExisting);
    this.memory = file.segment();
    this.sharesMemory = sharesMemory;
  }

  @Override
  public long capacity() {
    return memory.byteSize();
  }

  @Override
  public boolean isPersistent() {
    return true;
  }

  @Override
  public boolean sharesMemory() {
    return sharesMemory;
  }

  @Override
  public void write(Buf src, int srcIndex, int length, long offset) {
    EngineChecks.checkRange(this, offset, length);
    src.getBytes(srcIndex, memory, offset, length);
  }

  @Override
  public void read(long offset, Buf dst, int dstIndex, int length) {
    EngineChecks.checkRange(this, offset, length);
    dst.putBytes(dstIndex, memory, offset, length);
  }

  /**
   * A zero-copy view for {@code pmem:}.
   *
   * @throws UnsupportedOperationException for {@code mmap:}, whose reads copy
   */
  @Override
  public Buf view(long offset, int length, RefCnt refCnt) {
    if (!sharesMemory) {
      throw new UnsupportedOperationException(description() + " does not share memory; use read");
    }
    EngineChecks.checkRange(this, offset, length);
    return Buf.wrap(memory.asSlice(offset, length), refCnt);
  }

  @Override
  public void sync() throws IOException {
    file.force();
  }

  @Override
  public String description() {
    return (sharesMemory ? "pmem:" : "mmap:") + file.path();
  }

  @Override
  public void close() {
    file.close();
  }

  @Override
  public String toString() {
    return "MmapIOEngine[" + description() + ", " + capacity() + " bytes]";
  }
}
