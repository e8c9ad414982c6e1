package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.schema.BloomType;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Hash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cellar's bloom bytes against HBase 2.6.1's own classes: chunk sizing, chunk payloads after
 * folding, chunk first keys and their places, the meta payload, {@code LAST_BLOOM_KEY}, and the
 * answers of HBase's reader on the same bytes.
 */
@ExtendWith(TestSeedExtension.class)
class HBaseBloomCompatibilityTest {

  /** Lookups of present keys, and of random keys, per written bloom. */
  private static final int LOOKUPS = 600;

  private static final org.apache.hadoop.hbase.regionserver.BloomType HBASE_ROW =
      org.apache.hadoop.hbase.regionserver.BloomType.ROW;

  @Test
  void defaultSizingIsHBases() {
    BloomConfig defaults = BloomConfig.defaults();
    assertEquals(
        new ChunkSizing(131072, 7, 109306),
        ChunkSizing.forHint(131072, 7, defaults.errorRateFor(BloomType.ROW)));
    assertEquals(
        new ChunkSizing(131072, 8, 95069),
        ChunkSizing.forHint(131072, 7, defaults.errorRateFor(BloomType.ROWCOL)));
    assertEquals(new ChunkSizing(1024, 7, 853), ChunkSizing.forHint(1024, 7, 0.01f));
    // HBase's ROWCOL rate is computed partly in float: 1 - err in float, the rest in double.
    assertEquals(0x3ba44063, Float.floatToIntBits(defaults.errorRateFor(BloomType.ROWCOL)));
  }

  @Test
  void sizingMatchesHBaseAcrossHintsFoldsAndRates() {
    float[] rates = {0.01f, 0.001f, 0.05f, 0.1f, 0.2f, 0.5f, 1e-6f, 1e-20f, 0.0050125583f};
    int[] hints = {1, 2, 3, 7, 8, 13, 16, 64, 100, 127, 128, 129, 1000, 1024, 4097, 65536, 131072};
    for (float rate : rates) {
      for (int hint : hints) {
        for (int fold = 0; fold <= 9; fold++) {
          assertSizingMatchesHBase(rate, hint, fold);
        }
      }
    }
  }

  /** HBase's writer rounds the hint once, then {@code createBySize} sizes the chunk. */
  private static void assertSizingMatchesHBase(float rate, int hint, int fold) {
    String where = "rate " + rate + ", hint " + hint + ", fold " + fold;
    int byteSize = BloomFilterUtil.computeFoldableByteSize(hint * 8L, fold);
    assertEquals(byteSize, ChunkSizing.foldableByteSize(hint * 8L, fold), where);
    org.apache.hadoop.hbase.util.BloomFilterChunk hbase;
    try {
      hbase = BloomFilterUtil.createBySize(byteSize, rate, 1, fold, HBASE_ROW);
    } catch (ArithmeticException noKeyFits) {
      assertThrows(
          IllegalArgumentException.class, () -> ChunkSizing.forHint(hint, fold, rate), where);
      return;
    }
    if (hbase.getHashCount() < 1 || hbase.getMaxKeys() < 1) {
      assertThrows(
          IllegalArgumentException.class, () -> ChunkSizing.forHint(hint, fold, rate), where);
      return;
    }
    ChunkSizing ours = ChunkSizing.forHint(hint, fold, rate);
    assertEquals(hbase.getByteSize(), ours.byteSize(), where);
    assertEquals(hbase.getHashCount(), ours.hashCount(), where);
    assertEquals(hbase.getMaxKeys(), ours.maxKeys(), where);
  }

  @Test
  void probesAgreeWithHBaseOnTheSameBits(TestSeed seed) {
    Random random = new Random(seed.value());
    for (HashType hashType : HashType.values()) {
      BloomFilterChunk chunk = new BloomFilterChunk(ChunkSizing.forHint(64, 3, 0.05), hashType);
      for (int i = 0; i < 40; i++) {
        byte[] key = BloomCells.randomRow(random);
        chunk.add(key, 0, key.length);
      }
      byte[] bits = chunk.toByteArray();
      ByteBuff hbaseBits = ByteBuff.wrap(ByteBuffer.wrap(bits));
      Hash hash = Hash.getInstance(hashType.code());
      for (int i = 0; i < 2_000; i++) {
        byte[] key = BloomCells.randomRow(random);
        boolean expected =
            BloomFilterUtil.contains(
                key, 0, key.length, hbaseBits, 0, bits.length, hash, chunk.hashCount());
        assertEquals(
            expected,
            BloomFilterChunk.contains(
                Buf.wrap(bits),
                hashType,
                chunk.hashCount(),
                MemorySegment.ofArray(key),
                0,
                key.length),
            () -> hashType + " " + Bytes.toStringBinary(key));
      }
    }
  }

  /** Every key count from 1 to a full chunk, so that every fold boundary is crossed. */
  @Test
  void foldedChunksMatchHBaseAtEveryKeyCount(TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    for (HashType hashType : HashType.values()) {
      ChunkSizing sizing = ChunkSizing.forHint(256, 7, 0.01f);
      for (int keys = 1; keys <= sizing.maxKeys(); keys++) {
        org.apache.hadoop.hbase.util.BloomFilterChunk hbase =
            BloomFilterUtil.createBySize(256, 0.01f, hashType.code(), 7, HBASE_ROW);
        hbase.allocBloom();
        BloomFilterChunk ours = new BloomFilterChunk(sizing, hashType);
        for (int i = 0; i < keys; i++) {
          byte[] row = BloomCells.randomRow(random);
          hbase.add(new org.apache.hadoop.hbase.KeyValue(row, BloomCells.FAMILY, null));
          ours.add(row, 0, row.length);
        }
        hbase.compactBloom();
        ours.fold();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        hbase.writeBloom(new DataOutputStream(bytes));
        String context = hashType + ", " + keys + " keys";
        assertEquals(hbase.getMaxKeys(), ours.maxKeys(), context);
        assertArrayEquals(bytes.toByteArray(), ours.toByteArray(), context);
      }
    }
  }

  static Stream<Arguments> blooms() {
    List<Arguments> arguments = new ArrayList<>();
    for (HashType hashType : HashType.values()) {
      arguments.add(Arguments.of(BloomType.ROW, hashType));
      arguments.add(Arguments.of(BloomType.ROWCOL, hashType));
      arguments.add(Arguments.of(BloomType.ROWPREFIX_FIXED_LENGTH, hashType));
      arguments.add(Arguments.of(null, hashType));
    }
    return arguments.stream();
  }

  /**
   * The same cells through HBase's writer and ours, polled at the same random "data-block
   * boundaries", with small chunks so that there are many, most full and the last folded.
   *
   * @param type the general bloom type, or {@code null} for the delete-family bloom
   */
  @ParameterizedTest(name = "{0} bloom, {1}")
  @MethodSource("blooms")
  void writerAndReaderAreByteCompatibleWithHBase(BloomType type, HashType hashType, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    for (int round = 0; round < 3; round++) {
      BloomConfig config =
          new BloomConfig(
              round == 0 ? 0.01f : new float[] {0.01f, 0.02f, 0.001f}[random.nextInt(3)],
              random.nextInt(8),
              16 + random.nextInt(400),
              hashType,
              type == BloomType.ROWPREFIX_FIXED_LENGTH ? 1 + random.nextInt(4) : 0);
      List<BloomCells.Pair> cells = BloomCells.generate(random, 150 + random.nextInt(900));
      String context = "round " + round + ", " + config;

      HBaseBloomWriter hbase = new HBaseBloomWriter(type, config);
      CompoundBloomWriter ours =
          type == null
              ? CompoundBloomWriter.deleteFamily(config)
              : CompoundBloomWriter.general(type, config);
      HBaseBloomWriter.Positions hbasePositions = new HBaseBloomWriter.Positions();
      HBaseBloomWriter.Positions ourPositions = new HBaseBloomWriter.Positions();
      List<ReadyChunk> ourChunks = new ArrayList<>();
      for (BloomCells.Pair cell : cells) {
        hbase.add(cell.hbase());
        ours.add(cell.ours());
        if (random.nextInt(4) == 0) {
          hbase.poll(false, hbasePositions);
          while (ours.hasReadyChunk()) {
            ourChunks.add(write(ours, ours.takeReadyChunk(), ourPositions));
          }
        }
      }
      byte[] hbaseMeta = hbase.close(hbasePositions);
      while (ours.hasReadyChunk()) {
        ourChunks.add(write(ours, ours.takeReadyChunk(), ourPositions));
      }
      ReadyChunk last = ours.finishLastChunk();
      if (last != null) {
        ourChunks.add(write(ours, last, ourPositions));
      }

      assertEquals(hbase.keyCount(), ours.keyCount(), context);
      assertEquals(hbase.deleteFamilyCount(), ours.deleteFamilyCount(), context);
      assertEquals(hbase.chunks().size(), ourChunks.size(), context + ": chunk count");
      for (int i = 0; i < ourChunks.size(); i++) {
        assertArrayEquals(
            hbase.chunks().get(i).payload(), ourChunks.get(i).payload(), context + ": chunk " + i);
      }
      if (hbaseMeta == null) {
        assertEquals(0, ours.keyCount(), context);
        assertNull(ours.lastKey(), context);
        continue;
      }
      assertArrayEquals(hbaseMeta, ours.metaPayload(), context + ": meta payload");
      if (type != null) {
        assertArrayEquals(hbase.lastBloomKey(), ours.lastKey(), context + ": LAST_BLOOM_KEY");
      }
      compareLookups(type, config, cells, hbase, ours.metaPayload(), random, context);
    }
  }

  private static ReadyChunk write(
      CompoundBloomWriter writer, ReadyChunk chunk, HBaseBloomWriter.Positions positions) {
    writer.chunkWritten(
        positions.next(chunk.payload().length), positions.onDiskSize(chunk.payload().length));
    return chunk;
  }

  /**
   * Our reader and HBase's, on the same bytes, give the same answer for present and absent keys.
   */
  private static void compareLookups(
      BloomType type,
      BloomConfig config,
      List<BloomCells.Pair> cells,
      HBaseBloomWriter hbaseWriter,
      byte[] meta,
      Random random,
      String context)
      throws IOException {
    BloomType readType = type == null ? BloomType.ROW : type;
    Map<Long, byte[]> chunks = new HashMap<>();
    for (HBaseBloomWriter.Chunk chunk : hbaseWriter.chunks()) {
      chunks.put(chunk.offset(), chunk.payload());
    }
    HBaseBloomReader hbase = new HBaseBloomReader(meta, chunks, readType == BloomType.ROWCOL);
    CompoundBloomReader ours = CompoundBloomReader.parse(Buf.wrap(meta), readType);
    ChunkLoader loader = (offset, onDiskSize) -> Buf.wrap(chunks.get(offset));
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < LOOKUPS; i++) {
      BloomCells.Pair cell = cells.get(random.nextInt(cells.size()));
      keys.add(BloomKeys.of(readType, config.prefixLength(), cell.ours()));
    }
    for (int i = 0; i < LOOKUPS; i++) {
      byte[] row = BloomCells.randomRow(random);
      keys.add(
          switch (readType) {
            case ROW -> row;
            case ROWPREFIX_FIXED_LENGTH -> BloomKeys.rowPrefix(row, config.prefixLength());
            case ROWCOL -> BloomKeys.rowCol(row, BloomCells.randomQualifier(random));
            case NONE -> throw new AssertionError();
          });
    }

    for (byte[] key : keys) {
      assertEquals(
          hbase.contains(key),
          ours.mightContain(key, 0, key.length, loader),
          () -> context + ": lookup of " + Bytes.toStringBinary(key));
    }
  }

  @Test
  void rowColKeysAreHBasesFirstOnRowColKeys() {
    KeyValue cell =
        KeyValue.create(
            new byte[] {'r', 1},
            BloomCells.FAMILY,
            new byte[] {'q', (byte) 0x80},
            42,
            dev.cellar.cell.CellType.PUT,
            new byte[] {9});
    byte[] hbase =
        org.apache.hadoop.hbase.PrivateCellUtil.getCellKeySerializedAsKeyValueKey(
            org.apache.hadoop.hbase.PrivateCellUtil.createFirstOnRowCol(BloomCells.toHBase(cell)));
    assertArrayEquals(hbase, BloomKeys.rowCol(cell));
    assertArrayEquals(hbase, BloomKeys.rowCol(cell.rowArray(), cell.qualifierArray()));
  }
}
