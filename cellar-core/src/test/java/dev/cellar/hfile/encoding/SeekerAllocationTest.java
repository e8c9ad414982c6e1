package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Iterating a block with a seeker, and seeking in it, allocates nothing on the heap per cell once
 * the seeker's scratch buffers have grown, for a block in pooled off-heap memory with tags and
 * mvcc: tags dictionary-compressed (delta encodings) and no seek index, or plain tags and the
 * block's seek index.
 */
class SeekerAllocationTest {

  private static final int CELLS = 500;
  private static final int WARM_UP_ROUNDS = 100;
  private static final int ROUNDS = 50;
  private static final int SEEKS_PER_ROUND = 10;
  private static final long TOLERATED_BYTES = 4096;

  /** Buffers large enough for the whole block in one segment. */
  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, 1 << 20, 2, 0));

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  @ParameterizedTest(name = "{0} indexed={1}")
  @CsvSource({
    "NONE, false",
    "PREFIX, false",
    "DIFF, false",
    "FAST_DIFF, false",
    "ROW_INDEX_V1, false",
    "NONE, true",
    "PREFIX, true",
    "DIFF, true",
    "FAST_DIFF, true"
  })
  void iteratingAndSeekingAllocateNothingPerCell(DataBlockEncoding encoding, boolean indexed) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    EncodingContext context = new EncodingContext(true, true, !indexed);
    Random random = new Random(42);
    List<KeyValue> cells = new ArrayList<>();
    BlockEncoder encoder = Encodings.newEncoder(encoding, context);
    for (CellSpec spec : RandomBlockCells.generate(random, CELLS, true, false)) {
      KeyValue cell = spec.toKeyValue();
      cells.add(cell);
      encoder.append(cell);
    }
    byte[] payload = encoder.finishBlock();
    Buf buf = allocator.allocate(payload.length);
    try {
      assertTrue(buf.isDirect() && buf.isSingleSegment(), buf.toString());
      buf.putBytes(0, payload, 0, payload.length);
      BlockSeeker seeker = Encodings.newSeeker(encoding, context);
      seeker.setBlock(buf);
      if (indexed) {
        assertTrue(seeker.indexBlock() != null, "indexed");
      }
      KeyValue[] keys = new KeyValue[SEEKS_PER_ROUND];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = cells.get(random.nextInt(cells.size()));
      }
      long checksum = 0;
      for (int round = 0; round < WARM_UP_ROUNDS; round++) {
        checksum += walk(seeker, keys);
      }
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int round = 0; round < ROUNDS; round++) {
        checksum += walk(seeker, keys);
      }
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      double perCell = (double) allocated / ((long) ROUNDS * cells.size());
      System.out.printf(
          "%s: %d bytes allocated over %d cells iterated and %d seeks (%.4f bytes/cell)%n",
          encoding, allocated, ROUNDS * cells.size(), ROUNDS * keys.length, perCell);
      assertTrue(
          allocated < TOLERATED_BYTES,
          encoding + " allocated " + allocated + " bytes (checksum " + checksum + ")");
    } finally {
      buf.release();
    }
  }

  /** Iterates the whole block reading every cell's parts, then seeks to each key. */
  private static long walk(BlockSeeker seeker, KeyValue[] keys) {
    long sum = 0;
    seeker.rewind();
    do {
      Cell cell = seeker.current();
      sum += cell.keyLength() + cell.valueLength() + cell.tagsLength() + cell.sequenceId();
      sum += cell.timestamp() + cell.typeByte() + cell.rowLength() + cell.qualifierLength();
    } while (seeker.next());
    for (int i = 0; i < keys.length; i++) {
      sum += seeker.seekToKeyInBlock(keys[i], (i & 1) != 0);
      sum += seeker.current().valueLength();
    }
    return sum;
  }
}
