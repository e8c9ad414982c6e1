package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.BloomType;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keys written through {@link CompoundBloomWriter} with small chunks (so there are many) are all
 * found through {@link CompoundBloomReader}, whose chunks come from pooled off-heap buffers that it
 * must release; absent keys are reported present at about the configured rate.
 */
@ExtendWith(TestSeedExtension.class)
class CompoundBloomRoundTripTest {

  private static final byte[] FAMILY = {'f'};
  private static final int CHUNK_HINT = 1024;
  private static final int ROW_COUNT = 20_000;
  private static final int ABSENT_PROBES = 60_000;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  /** A written bloom: meta payload and chunk payloads by offset. */
  private record Written(byte[] meta, Map<Long, byte[]> chunks, CompoundBloomWriter writer) {}

  @ParameterizedTest
  @EnumSource(
      value = BloomType.class,
      names = {"ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"})
  void everyKeyIsFoundAndFalsePositivesStayNearTheTarget(BloomType type, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    int prefixLength = 6;
    BloomConfig config =
        new BloomConfig(
            BloomConfig.DEFAULT_ERROR_RATE,
            BloomConfig.DEFAULT_MAX_FOLD,
            CHUNK_HINT,
            HashType.values()[random.nextInt(3)],
            type == BloomType.ROWPREFIX_FIXED_LENGTH ? prefixLength : 0);
    TreeSet<byte[]> rows = randomRows(random, ROW_COUNT);
    List<KeyValue> cells = new ArrayList<>();
    Set<byte[]> present = new TreeSet<>(Arrays::compareUnsigned);
    for (byte[] row : rows) {
      byte[][] qualifiers = {randomBytes(random, 1 + random.nextInt(6)), new byte[] {'z'}};
      Arrays.sort(qualifiers, Arrays::compareUnsigned);
      for (byte[] qualifier : qualifiers) {
        KeyValue cell = KeyValue.create(row, FAMILY, qualifier, 1, CellType.PUT, new byte[0]);
        cells.add(cell);
        present.add(BloomKeys.of(type, prefixLength, cell));
      }
    }
    Written written = write(CompoundBloomWriter.general(type, config), cells);
    CompoundBloomReader reader = CompoundBloomReader.parse(Buf.wrap(written.meta()), type);
    assertTrue(reader.chunkCount() > 10, "expected many chunks, got " + reader);
    ChunkLoader loader = pooledLoader(written.chunks());

    for (KeyValue cell : cells) {
      byte[] key = BloomKeys.of(type, prefixLength, cell);
      assertTrue(
          reader.mightContain(key, 0, key.length, loader), () -> "false negative for " + cell);
    }

    int probes = 0;
    int positives = 0;
    while (probes < ABSENT_PROBES) {
      byte[] row = randomRow(random);
      byte[] key =
          switch (type) {
            case ROW -> row;
            case ROWPREFIX_FIXED_LENGTH -> BloomKeys.rowPrefix(row, prefixLength);
            case ROWCOL -> BloomKeys.rowCol(row, randomBytes(random, 1 + random.nextInt(6)));
            case NONE -> throw new AssertionError();
          };
      if (present.contains(key)) {
        continue;
      }
      probes++;
      if (reader.mightContain(key, 0, key.length, loader)) {
        positives++;
      }
    }
    double target = config.errorRateFor(type);
    double measured = (double) positives / probes;
    System.out.printf(
        "%s bloom, %s: %d chunks, %d keys, false-positive rate %.5f (target %.5f)%n",
        type, config.hashType(), reader.chunkCount(), reader.keyCount(), measured, target);
    assertTrue(
        measured <= 3 * target, "false-positive rate " + measured + " exceeds 3 x " + target);
  }

  @ParameterizedTest
  @ValueSource(ints = {64, 1024})
  void deleteFamilyBloomFindsEveryMarkedRow(int chunkHint, TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    BloomConfig config = new BloomConfig(0.01f, 7, chunkHint, HashType.MURMUR, 0);
    List<KeyValue> cells = new ArrayList<>();
    List<byte[]> marked = new ArrayList<>();
    List<byte[]> unmarked = new ArrayList<>();
    long markers = 0;
    for (byte[] row : randomRows(random, 5_000)) {
      boolean mark = random.nextInt(3) == 0;
      if (mark) {
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
          CellType type = i == 0 ? CellType.DELETE_FAMILY : CellType.DELETE_FAMILY_VERSION;
          cells.add(KeyValue.create(row, FAMILY, new byte[0], 10 - i, type, new byte[0]));
        }
        markers += count;
        marked.add(row);
      } else {
        unmarked.add(row);
      }
      cells.add(KeyValue.create(row, FAMILY, new byte[] {'q'}, 5, CellType.PUT, new byte[0]));
    }
    Written written = write(CompoundBloomWriter.deleteFamily(config), cells);
    assertEquals(markers, written.writer().deleteFamilyCount());
    assertEquals(marked.size(), written.writer().keyCount());
    CompoundBloomReader reader = CompoundBloomReader.parse(Buf.wrap(written.meta()), BloomType.ROW);
    ChunkLoader loader = pooledLoader(written.chunks());
    for (byte[] row : marked) {
      assertTrue(
          reader.mightContain(row, 0, row.length, loader),
          () -> "false negative for row " + Bytes.toStringBinary(row));
    }
    int positives = 0;
    for (byte[] row : unmarked) {
      if (reader.mightContain(row, 0, row.length, loader)) {
        positives++;
      }
    }
    assertTrue(
        positives <= 3 * 0.01 * unmarked.size() + 5,
        positives + " of " + unmarked.size() + " unmarked rows reported");
  }

  /** Drives the writer as an HFile writer would: a poll every few cells, then close. */
  private static Written write(CompoundBloomWriter writer, List<KeyValue> cells) {
    Map<Long, byte[]> chunks = new HashMap<>();
    long[] offset = {0};
    int cell = 0;
    for (KeyValue kv : cells) {
      writer.add(kv);
      if (++cell % 50 == 0) {
        while (writer.hasReadyChunk()) {
          store(writer, writer.takeReadyChunk(), chunks, offset);
        }
      }
    }
    while (writer.hasReadyChunk()) {
      store(writer, writer.takeReadyChunk(), chunks, offset);
    }
    ReadyChunk last = writer.finishLastChunk();
    if (last != null) {
      store(writer, last, chunks, offset);
    }
    return new Written(writer.metaPayload(), chunks, writer);
  }

  private static void store(
      CompoundBloomWriter writer, ReadyChunk chunk, Map<Long, byte[]> chunks, long[] offset) {
    int onDiskSize = chunk.payload().length + 37;
    writer.chunkWritten(offset[0], onDiskSize);
    chunks.put(offset[0], chunk.payload());
    offset[0] += onDiskSize + 65_536;
  }

  /** A loader that copies each chunk into a pooled buffer, as a block cache miss would. */
  private ChunkLoader pooledLoader(Map<Long, byte[]> chunks) {
    return (offset, onDiskSize) -> {
      byte[] payload = chunks.get(offset);
      Buf buf = allocator.allocate(payload.length);
      buf.putBytes(0, payload, 0, payload.length);
      return buf;
    };
  }

  private static TreeSet<byte[]> randomRows(Random random, int count) {
    TreeSet<byte[]> rows = new TreeSet<>(Arrays::compareUnsigned);
    while (rows.size() < count) {
      rows.add(randomRow(random));
    }
    return rows;
  }

  private static byte[] randomRow(Random random) {
    return randomBytes(random, 4 + random.nextInt(12));
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
