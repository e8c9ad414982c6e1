package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Round trips through every encoding against a {@link TreeMap} oracle: sorted cells are cut into
 * blocks as HBase's writer cuts them, each block is read from a pooled off-heap buffer or a heap
 * buffer, iterated, and sought with keys that are present, absent, before the first cell and after
 * the last, with and without seekBefore, in random order so that seeks go forward and back; half
 * the blocks with a seek index, built by the seeker itself or by another seeker and handed over.
 * Blocks run from 256 bytes to 64 KiB, so that large blocks hold indexes of many entry groups.
 */
@ExtendWith(TestSeedExtension.class)
class SeekerOracleTest {

  private static final int CELLS = 1000;
  private static final int PROBES_PER_BLOCK = 80;

  /** Large enough that every block fits one pooled buffer, large values included. */
  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, 1 << 20, 8, 0));

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  static Stream<Arguments> encodingsAndContexts() {
    List<Arguments> arguments = new ArrayList<>();
    for (DataBlockEncoding encoding : DataBlockEncoding.values()) {
      for (int switches = 0; switches < 8; switches++) {
        EncodingContext context =
            new EncodingContext((switches & 1) != 0, (switches & 2) != 0, (switches & 4) != 0);
        arguments.add(Arguments.of(encoding, context));
      }
    }
    return arguments.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("encodingsAndContexts")
  void roundTripsAndSeeksLikeTheOracle(
      DataBlockEncoding encoding, EncodingContext context, TestSeed seed) {
    Random random = new Random(seed.value());
    List<KeyValue> cells = new ArrayList<>();
    for (CellSpec spec : RandomBlockCells.generate(random, CELLS, context.includesTags(), true)) {
      cells.add(spec.toKeyValue());
    }
    int blockSize = 256 << random.nextInt(9);
    BlockEncoder encoder = Encodings.newEncoder(encoding, context);
    BlockSeeker seeker = Encodings.newSeeker(encoding, context);
    BlockSeeker indexer = Encodings.newSeeker(encoding, context);
    int start = 0;
    for (int end = 1; end <= cells.size(); end++) {
      encoder.append(cells.get(end - 1));
      boolean last = end == cells.size();
      if (last || cutBefore(encoder, blockSize, cells.get(end - 1), cells.get(end))) {
        List<KeyValue> block = cells.subList(start, end);
        byte[] payload = encoder.finishBlock();
        checkBlock(seeker, indexer, context, block, payload, random, "block at cell " + start);
        start = end;
      }
    }
  }

  /** HBase's cut: at least a block's worth written, and never between cells with equal keys. */
  private static boolean cutBefore(BlockEncoder encoder, int blockSize, Cell last, Cell next) {
    return (encoder.encodedSize() >= blockSize || encoder.unencodedSize() >= blockSize)
        && CellComparator.compareKeyIgnoringSequenceId(last, next) != 0;
  }

  private void checkBlock(
      BlockSeeker seeker,
      BlockSeeker indexer,
      EncodingContext context,
      List<KeyValue> block,
      byte[] payload,
      Random random,
      String message) {
    boolean offHeap = random.nextBoolean();
    Buf buf = offHeap ? allocator.allocate(payload.length) : Buf.wrap(payload);
    try {
      if (offHeap) {
        buf.putBytes(0, payload, 0, payload.length);
        assertTrue(buf.isDirect() && buf.isSingleSegment(), message);
      }
      TreeMap<Cell, Integer> oracle = new TreeMap<>(CellComparator.IGNORING_SEQUENCE_ID);
      for (int i = 0; i < block.size(); i++) {
        oracle.put(block.get(i), i);
      }
      seeker.setBlock(buf);
      switch (random.nextInt(5)) {
        case 0 -> checkIndex(seeker.indexBlock(), encoding(seeker), context, payload, message);
        case 1 -> {
          indexer.setBlock(buf);
          SeekIndex index = indexer.indexBlock();
          checkIndex(index, encoding(seeker), context, payload, message);
          if (index != null) {
            seeker.useIndex(index);
          }
        }
        case 2 -> {
          indexer.setBlock(buf);
          SeekIndex index = indexer.indexBlock();
          if (index != null) {
            seeker.setIndexedBlock(buf.segment(), payload.length, index);
            startIndexed(seeker, context, block, oracle, random, message + " (set indexed)");
          }
        }
        default -> {}
      }
      iterate(seeker, context, block, buf.segment(), message);
      for (int probe = 0; probe < PROBES_PER_BLOCK; probe++) {
        KeyValue key = probeKey(random, block);
        if (random.nextInt(4) == 0) {
          seekToRowStart(seeker, context, block, key, message);
        }
        boolean seekBefore = random.nextBoolean();
        seek(seeker, context, block, oracle, key, seekBefore, random, message);
      }
    } finally {
      buf.release();
    }
  }

  /**
   * The first move after {@code setIndexedBlock}, which may leave the block's first cell undecoded:
   * the seeker must be on that cell whichever move comes first, and a seek must find what it would
   * have found after {@code setBlock}.
   */
  private void startIndexed(
      BlockSeeker seeker,
      EncodingContext context,
      List<KeyValue> block,
      TreeMap<Cell, Integer> oracle,
      Random random,
      String message) {
    switch (random.nextInt(5)) {
      case 0 -> {
        assertTrue(seeker.isValid(), message);
        CellAssertions.assertSameCell(block.get(0), seeker.current(), context, () -> message);
      }
      case 1 -> {
        assertEquals(block.size() > 1, seeker.next(), message);
        if (block.size() > 1) {
          CellAssertions.assertSameCell(block.get(1), seeker.current(), context, () -> message);
        }
      }
      case 2 -> {
        CellAssertions.assertSameKey(block.get(0), seeker.firstKeyInBlock(), () -> message);
        CellAssertions.assertSameCell(block.get(0), seeker.current(), context, () -> message);
      }
      case 3 -> {
        KeyValue key = probeKey(random, block);
        Supplier<String> what = () -> message + " seekToRowStart " + key;
        if (seeker.seekToRowStart(key)) {
          int index = firstAfter(block, key);
          CellAssertions.assertSameCell(block.get(index), seeker.current(), context, what);
          assertEquals(index + 1 < block.size(), seeker.next(), what);
          if (index + 1 < block.size()) {
            CellAssertions.assertSameCell(block.get(index + 1), seeker.current(), context, what);
          }
        } else {
          assertTrue(seeker.isValid(), what);
          CellAssertions.assertSameCell(block.get(0), seeker.current(), context, what);
        }
      }
      default ->
          seek(
              seeker,
              context,
              block,
              oracle,
              probeKey(random, block),
              random.nextBoolean(),
              random,
              message);
    }
  }

  /** The index of the first cell after {@code key}, or the block's size. */
  private static int firstAfter(List<KeyValue> block, KeyValue key) {
    int index = 0;
    while (index < block.size()
        && CellComparator.compareKeyIgnoringSequenceId(block.get(index), key) <= 0) {
      index++;
    }
    return index;
  }

  private static DataBlockEncoding encoding(BlockSeeker seeker) {
    return switch (seeker) {
      case NoneSeeker none -> DataBlockEncoding.NONE;
      case RowIndexSeeker rowIndex -> DataBlockEncoding.ROW_INDEX_V1;
      default -> DataBlockEncoding.PREFIX;
    };
  }

  /** An index exists exactly when the block has a use for one, and stays within its bound. */
  private static void checkIndex(
      SeekIndex index,
      DataBlockEncoding encoding,
      EncodingContext context,
      byte[] payload,
      String message) {
    boolean expected =
        encoding != DataBlockEncoding.ROW_INDEX_V1
            && (encoding == DataBlockEncoding.NONE || !context.dictionaryCompressesTags());
    assertEquals(expected, index != null, message);
    if (index != null) {
      assertTrue(index.count() > 0 || encoding != DataBlockEncoding.NONE, message);
      assertTrue(
          index.heapSize() <= Encodings.maxSeekIndexHeapSize(encoding, payload.length),
          () -> message + ": " + index + " takes " + index.heapSize() + " bytes");
    }
  }

  /**
   * Walks the block and checks every cell; also that cells are read in place: NONE and ROW_INDEX_V1
   * cells entirely, delta-encoded values (and uncompressed tags) too.
   */
  private static void iterate(
      BlockSeeker seeker,
      EncodingContext context,
      List<KeyValue> block,
      MemorySegment payload,
      String message) {
    boolean plain = !(seeker instanceof DeltaSeeker);
    boolean tagsInPlace = plain || !context.dictionaryCompressesTags();
    CellAssertions.assertSameKey(block.get(0), seeker.firstKeyInBlock(), () -> message);
    seeker.rewind();
    for (int i = 0; i < block.size(); i++) {
      int at = i;
      assertTrue(i == 0 || seeker.next(), () -> message + " #" + at);
      assertTrue(seeker.isValid(), message);
      Cell cell = seeker.current();
      CellAssertions.assertSameCell(block.get(i), cell, context, () -> message + " #" + at);
      assertTrue(!plain || cell.segment() == payload, message);
      assertSame(payload, cell.valueSegment(), message);
      assertTrue(!tagsInPlace || cell.tagsSegment() == payload, message);
    }
    assertFalse(seeker.next(), message);
    assertFalse(seeker.isValid(), message);
  }

  private static void seek(
      BlockSeeker seeker,
      EncodingContext context,
      List<KeyValue> block,
      TreeMap<Cell, Integer> oracle,
      KeyValue key,
      boolean seekBefore,
      Random random,
      String message) {
    Supplier<String> what = () -> message + " seek" + (seekBefore ? "Before " : " ") + key;
    Map.Entry<Cell, Integer> expected =
        seekBefore ? oracle.lowerEntry(key) : oracle.floorEntry(key);
    int result = seeker.seekToKeyInBlock(key, seekBefore);
    int index;
    if (expected == null) {
      assertEquals(BlockSeeker.KEY_BEFORE_BLOCK, result, what);
      index = 0;
    } else {
      boolean exact = CellComparator.compareKeyIgnoringSequenceId(key, expected.getKey()) == 0;
      assertEquals(exact ? BlockSeeker.EXACT : BlockSeeker.BEFORE, result, what);
      index = expected.getValue();
    }
    CellAssertions.assertSameCell(block.get(index), seeker.current(), context, what);
    int steps = random.nextInt(3);
    for (int step = 1; step <= steps; step++) {
      if (index + step < block.size()) {
        int next = index + step;
        assertTrue(seeker.next(), () -> what.get() + ", then next to #" + next);
        CellAssertions.assertSameCell(
            block.get(next), seeker.current(), context, () -> what.get() + ", then #" + next);
      } else {
        assertFalse(seeker.next(), () -> what.get() + ", then next past the end");
        return;
      }
    }
  }

  /**
   * A seek to the first cell of the key's row: when the seeker finds it, it is the first cell after
   * the key and the first of its row in the block; when it does not, the seeker has not moved.
   */
  private void seekToRowStart(
      BlockSeeker seeker,
      EncodingContext context,
      List<KeyValue> block,
      KeyValue key,
      String message) {
    Supplier<String> what = () -> message + " seekToRowStart " + key;
    boolean wasValid = seeker.isValid();
    KeyValue before = wasValid ? KeyValue.copyOf(seeker.current()) : null;
    if (seeker.seekToRowStart(key)) {
      // the first cell after the key (the oracle keeps the last of cells with equal keys)
      int index = firstAfter(block, key);
      assertTrue(index < block.size(), what);
      CellAssertions.assertSameCell(block.get(index), seeker.current(), context, what);
      assertTrue(
          index > 0 && !Arrays.equals(block.get(index - 1).rowArray(), block.get(index).rowArray()),
          () -> what.get() + ": not the first cell of its row");
      assertTrue(Arrays.equals(key.rowArray(), block.get(index).rowArray()), what);
    } else {
      assertEquals(wasValid, seeker.isValid(), what);
      if (wasValid) {
        CellAssertions.assertSameCell(before, seeker.current(), context, what);
      }
    }
  }

  /** A key present in the block, next to one, or outside the block on either side. */
  private static KeyValue probeKey(Random random, List<KeyValue> block) {
    KeyValue cell = block.get(random.nextInt(block.size()));
    byte[] row = cell.rowArray();
    byte[] family = cell.familyArray();
    byte[] qualifier = cell.qualifierArray();
    long timestamp = cell.timestamp();
    return switch (random.nextInt(10)) {
      case 0, 1, 2 -> KeyValue.copyOf(cell);
      case 3 -> KeyValue.firstOnRow(row);
      case 4 -> KeyValue.lastOnRow(row);
      case 5 -> KeyValue.firstOnColumn(row, family, qualifier);
      case 6 -> KeyValue.lastOnColumn(row, family, qualifier);
      case 7 ->
          KeyValue.create(
              row,
              family,
              qualifier,
              timestamp + (random.nextBoolean() ? 1 : -1),
              cell.type(),
              new byte[0]);
      case 8 ->
          KeyValue.create(append(row), family, qualifier, timestamp, CellType.PUT, new byte[0]);
      default ->
          random.nextBoolean()
              ? KeyValue.firstOnRow(new byte[0])
              : KeyValue.lastOnRow(filled(block.getLast().rowLength() + 1));
    };
  }

  private static byte[] append(byte[] row) {
    byte[] longer = Arrays.copyOf(row, row.length + 1);
    longer[row.length] = 0;
    return longer;
  }

  private static byte[] filled(int length) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) 0xFF);
    return bytes;
  }
}
