package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HugePageMemoryTest {

  private static final long SIZE = 6 * HugePageMemory.HUGE_PAGE + 4096;

  @Test
  void aLargeAllocationIsZeroedWritableAndFreedWithItsArena() {
    MemorySegment segment;
    try (Arena arena = Arena.ofShared()) {
      segment = HugePageMemory.allocate(arena, SIZE);
      assertEquals(SIZE, segment.byteSize());
      assertEquals(0, segment.address() % Long.BYTES);
      assertEquals(
          -1,
          segment.mismatch(MemorySegment.ofArray(new byte[(int) SIZE])),
          "fresh memory reads as zeros");
      for (long at = 0; at < SIZE; at += 4093) {
        segment.set(ValueLayout.JAVA_BYTE, at, (byte) at);
      }
      for (long at = 0; at < SIZE; at += 4093) {
        assertEquals((byte) at, segment.get(ValueLayout.JAVA_BYTE, at), "byte at " + at);
      }
    }
    MemorySegment closed = segment;
    assertThrows(IllegalStateException.class, () -> closed.get(ValueLayout.JAVA_BYTE, 0));
  }

  /** An arena that is closed already refuses the mapping, which is unmapped, not leaked. */
  @Test
  void aMappingIntoAClosedArenaIsRefusedAndUnmapped() throws IOException {
    Arena arena = Arena.ofShared();
    arena.close();
    long mappingsBefore = mappings();
    assertThrows(IllegalStateException.class, () -> HugePageMemory.allocate(arena, SIZE));
    assertEquals(mappingsBefore, mappings(), "no mapping of that length left behind");
  }

  /**
   * How many of this process's mappings are as long as one of {@link #SIZE} bytes (a length no
   * other mapping has); 0 where the kernel does not list them.
   */
  private static long mappings() throws IOException {
    Path maps = Path.of("/proc/self/maps");
    if (!Files.isReadable(maps)) {
      return 0;
    }
    long length = (SIZE + 4095) / 4096 * 4096;
    return Files.readAllLines(maps).stream()
        .map(line -> line.substring(0, line.indexOf(' ')).split("-"))
        .filter(
            range ->
                Long.parseUnsignedLong(range[1], 16) - Long.parseUnsignedLong(range[0], 16)
                    == length)
        .count();
  }

  @Test
  void aSmallAllocationComesFromTheArena() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = HugePageMemory.allocate(arena, 1000);
      assertEquals(1000, segment.byteSize());
      assertEquals(arena.scope(), segment.scope());
    }
  }

  /** Where the kernel gives huge pages on request, the mapping asked for them (smaps says so). */
  @Test
  void aLargeAllocationIsAdvisedForHugePagesWhereTheSystemOffersThem() throws IOException {
    Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    assumeTrue(
        Files.isReadable(mode) && Files.readString(mode).matches("(?s).*\\[(always|madvise)].*"),
        "transparent huge pages are not offered here");
    assertTrue(HugePageMemory.available(), "mapping is available on Linux with native access");
    try (Arena arena = Arena.ofShared()) {
      MemorySegment segment = HugePageMemory.allocate(arena, SIZE);
      assertEquals(
          1,
          smapsField(segment.address(), "THPeligible"),
          "THPeligible of the mapping's smaps entry");
      assertTrue(
          smapsField(segment.address(), "Rss") * 1024 >= SIZE,
          "the whole mapping is faulted in when made, not by its first reader");
    }
  }

  /**
   * The number in field {@code name} ({@code THPeligible}, or a size in kB) of the {@code
   * /proc/self/smaps} entry holding {@code address}.
   */
  private static long smapsField(long address, String name) throws IOException {
    List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
    boolean inside = false;
    for (String line : lines) {
      if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
        String[] range = line.substring(0, line.indexOf(' ')).split("-");
        inside =
            Long.parseUnsignedLong(range[0], 16) <= address
                && address < Long.parseUnsignedLong(range[1], 16);
      } else if (inside && line.startsWith(name + ":")) {
        return Long.parseLong(line.substring(name.length() + 1).replace("kB", "").trim());
      }
    }
    throw new AssertionError("no smaps entry holds " + Long.toHexString(address));
  }
}
