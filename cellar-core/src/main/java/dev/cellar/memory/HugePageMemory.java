package dev.cellar.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Large off-heap allocations backed by transparent huge pages where the operating system offers
 * them: anonymous memory mapped with {@code mmap} and advised with {@code madvise(MADV_HUGEPAGE)}
 * before it is first touched, through the foreign function interface.
 *
 * <p><b>Why.</b> A cached Get reads a dozen scattered cache lines of a cache of gigabytes; with 4
 * KiB pages nearly each of them also misses the CPU's TLB, and the page walk costs further memory
 * reads. With 2 MiB pages the TLB covers gigabytes. Linux's default THP mode ({@code madvise})
 * gives huge pages only to memory that asks, and memory from {@code malloc} (what {@link
 * Arena#allocate} uses, zeroing it at once in small pages) never asks.
 *
 * <p><b>Faulted in at once.</b> A mapping is touched page by page when made, so its memory is
 * backed before anything is stored in it: the cost of a first touch (zeroing, in huge pages perhaps
 * a wait for the kernel to compact memory) is paid at allocation, as {@code Arena.allocate}'s
 * zeroing paid it, not by a reader that lands a block in a fresh slot. The Java heap is not advised
 * so by Cellar's launcher for that reason: G1 touches new regions while it collects, and young
 * pauses that grew a heap in huge pages took up to four times as long.
 *
 * <p><b>Fallback.</b> Where mapping is not possible (not Linux, THP disabled, native access denied,
 * the system property {@value #PROPERTY} set to {@code false}) or a mapping fails, the memory comes
 * from {@link Arena#allocate} as before; the reason is logged once. Fresh anonymous mappings are
 * zeroed by the kernel, as {@code Arena.allocate} zeroes its memory.
 *
 * <p><b>Memory.</b> A mapping belongs to the arena it is made in: closing the arena unmaps it.
 * Thread-safe (stateless after class initialization).
 */
public final class HugePageMemory {

  /** Set to {@code false} to allocate large regions with {@link Arena#allocate} only. */
  public static final String PROPERTY = "cellar.memory.hugePages";

  /** The huge page size advised for (x86-64 and arm64 Linux's default). */
  static final long HUGE_PAGE = 2L << 20;

  /** The smallest page a mapping may fall back to in parts. */
  private static final long SMALL_PAGE = 4096;

  private static final Logger LOG = LoggerFactory.getLogger(HugePageMemory.class);

  private static final int PROT_READ = 0x1;
  private static final int PROT_WRITE = 0x2;
  private static final int MAP_PRIVATE = 0x02;
  private static final int MAP_ANONYMOUS = 0x20;
  private static final int MADV_HUGEPAGE = 14;
  private static final long MAP_FAILED = -1L;

  private static final Native NATIVE = Native.load();

  private HugePageMemory() {}

  /** Whether large allocations are mapped and advised for huge pages in this JVM. */
  public static boolean available() {
    return NATIVE != null;
  }

  /**
   * {@code bytes} of zeroed memory in {@code arena}, aligned for longs: mapped and advised for huge
   * pages when {@code bytes} is at least one huge page and mapping is available, otherwise {@code
   * arena.allocate(bytes, Long.BYTES)}. Restricted: sizes the mapping mmap returned, which {@link
   * Native#load} makes only with native access granted.
   */
  @SuppressWarnings("restricted")
  public static MemorySegment allocate(Arena arena, long bytes) {
    if (NATIVE == null || bytes < HUGE_PAGE) {
      return arena.allocate(bytes, Long.BYTES);
    }
    MemorySegment mapped = NATIVE.map(bytes);
    if (mapped == null) {
      return arena.allocate(bytes, Long.BYTES);
    }
    MemorySegment segment;
    try {
      segment = mapped.reinterpret(bytes, arena, unmapped -> NATIVE.unmap(unmapped, bytes));
    } catch (RuntimeException e) {
      NATIVE.unmap(mapped, bytes);
      throw e;
    }
    faultIn(segment);
    return segment;
  }

  /**
   * Writes a zero into every small page of {@code segment}, so that the kernel backs the whole
   * mapping now, as {@link Arena#allocate} did by zeroing it: a first touch later would fault on a
   * reader's thread, and with huge pages a fault zeroes 2 MiB and may wait for the kernel to
   * compact memory (the Java heap in huge pages made young collections that grew the heap take up
   * to 336 ms against 81 ms).
   */
  private static void faultIn(MemorySegment segment) {
    long size = segment.byteSize();
    for (long at = 0; at < size; at += SMALL_PAGE) {
      segment.set(ValueLayout.JAVA_BYTE, at, (byte) 0);
    }
  }

  /** The three libc calls, bound once; null where they cannot be used. */
  private record Native(MethodHandle mmap, MethodHandle madvise, MethodHandle munmap) {

    /** Binds libc's calls; restricted, so only when this module has native access. */
    @SuppressWarnings("restricted")
    static Native load() {
      if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
        return null;
      }
      String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
      if (!os.startsWith("linux")) {
        return null;
      }
      if (!HugePageMemory.class.getModule().isNativeAccessEnabled()) {
        LOG.info(
            "large off-heap regions use small pages: native access is not enabled for"
                + " Cellar (--enable-native-access)");
        return null;
      }
      try {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        MethodHandle mmap =
            linker.downcallHandle(
                libc.find("mmap").orElseThrow(),
                FunctionDescriptor.of(
                    ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG));
        MethodHandle madvise =
            linker.downcallHandle(
                libc.find("madvise").orElseThrow(),
                FunctionDescriptor.of(
                    ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT));
        MethodHandle munmap =
            linker.downcallHandle(
                libc.find("munmap").orElseThrow(),
                FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        return new Native(mmap, madvise, munmap);
      } catch (RuntimeException | LinkageError e) {
        LOG.info("large off-heap regions use small pages: {}", e.toString());
        return null;
      }
    }

    /** A fresh anonymous mapping of {@code bytes}, advised for huge pages; null if refused. */
    MemorySegment map(long bytes) {
      try {
        MemorySegment address =
            (MemorySegment)
                mmap.invokeExact(
                    MemorySegment.NULL,
                    bytes,
                    PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS,
                    -1,
                    0L);
        if (address.address() == MAP_FAILED) {
          return null;
        }
        int advised = (int) madvise.invokeExact(address, bytes, MADV_HUGEPAGE);
        if (advised != 0) {
          LOG.debug(
              "madvise(MADV_HUGEPAGE) refused for {} bytes; the mapping keeps small pages", bytes);
        }
        return address;
      } catch (Throwable e) {
        throw new IllegalStateException("mapping " + bytes + " bytes of off-heap memory failed", e);
      }
    }

    void unmap(MemorySegment segment, long bytes) {
      try {
        int result = (int) munmap.invokeExact(MemorySegment.ofAddress(segment.address()), bytes);
        if (result != 0) {
          LOG.warn("munmap of {} bytes at {} failed", bytes, Long.toHexString(segment.address()));
        }
      } catch (Throwable e) {
        LOG.warn("munmap of {} bytes failed", bytes, e);
      }
    }
  }
}
