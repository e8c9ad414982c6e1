package dev.cellar.memory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One large piece of off-heap memory that lives as long as the component owning it (an L2 cache
 * engine): allocated memory or a file mapping, held as a single {@link MemorySegment} in its own
 * long-lived shared {@link Arena}.
 *
 * <p><b>Memory.</b> The region owns its arena and the arena owns the segment; {@link #close()}
 * frees the memory (or unmaps the file) at once. Closing a shared arena synchronizes the whole JVM,
 * which is why a region is created once per component and closed only at shutdown.
 *
 * <p><b>Concurrency.</b> The segment may be read and written from any thread. Accesses after {@link
 * #close()} throw {@link IllegalStateException} rather than touch freed memory; the close itself
 * must not race other accesses (the arena refuses to close while one is in progress).
 */
public final class OffHeapRegion implements AutoCloseable {

  /** Creates the segment a region holds, in the arena the region will own. */
  @FunctionalInterface
  public interface Source {
    MemorySegment create(Arena arena) throws IOException;
  }

  private final Arena arena;
  private final MemorySegment segment;
  private boolean closed;

  private OffHeapRegion(Arena arena, MemorySegment segment) {
    this.arena = arena;
    this.segment = segment;
  }

  /**
   * {@code bytes} of zeroed off-heap memory, aligned for longs, in huge pages where the system
   * offers them ({@link HugePageMemory}).
   */
  public static OffHeapRegion allocate(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("region size must be > 0, was " + bytes);
    }
    Arena arena = Arena.ofShared();
    try {
      return new OffHeapRegion(arena, HugePageMemory.allocate(arena, bytes));
    } catch (RuntimeException | Error e) {
      arena.close();
      throw e;
    }
  }

  /**
   * The segment {@code source} creates in a new arena (a file mapping, for instance).
   *
   * @throws IllegalArgumentException if the segment does not belong to the arena it was given
   */
  public static OffHeapRegion create(Source source) throws IOException {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment segment = source.create(arena);
      if (!segment.scope().equals(arena.scope())) {
        throw new IllegalArgumentException(
            "the source returned a segment it did not create in the"
                + " region's arena: "
                + segment);
      }
      return new OffHeapRegion(arena, segment);
    } catch (IOException | RuntimeException | Error e) {
      arena.close();
      throw e;
    }
  }

  /** The region's memory; valid until {@link #close()}. */
  public MemorySegment segment() {
    return segment;
  }

  /** Frees the memory; later calls do nothing. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      arena.close();
    }
  }

  @Override
  public String toString() {
    return "OffHeapRegion[" + segment.byteSize() + " bytes" + (closed ? ", closed]" : "]");
  }
}
