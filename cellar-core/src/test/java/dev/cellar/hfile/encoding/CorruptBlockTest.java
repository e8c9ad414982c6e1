package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Truncated and bit-flipped payloads never make a seeker throw anything but {@link
 * MalformedBlockException}: not while setting the block, indexing it, iterating, reading every part
 * of every cell, or seeking (with the block's seek index when building it succeeded).
 */
@ExtendWith(TestSeedExtension.class)
class CorruptBlockTest {

  private static final int MUTATIONS = 3000;
  private static final int MAX_CELLS = 40;
  private static final int PROBES = 4;
  private static final int HEADER_BIAS = 24;

  /** A valid block to mutate and the keys to seek in it. */
  private record Sample(EncodingContext context, byte[] payload, List<KeyValue> cells) {}

  @ParameterizedTest
  @EnumSource(DataBlockEncoding.class)
  void malformedPayloadsRaiseOnlyMalformedBlockException(
      DataBlockEncoding encoding, TestSeed seed) {
    Random random = new Random(seed.value());
    List<Sample> samples = samples(encoding, random);
    List<BlockSeeker> seekers = new ArrayList<>();
    for (Sample sample : samples) {
      seekers.add(Encodings.newSeeker(encoding, sample.context()));
    }
    int malformed = 0;
    for (int mutation = 0; mutation < MUTATIONS; mutation++) {
      int which = random.nextInt(samples.size());
      Sample sample = samples.get(which);
      byte[] bytes = mutate(random, sample.payload());
      try {
        exercise(seekers.get(which), bytes, sample.cells(), random);
      } catch (MalformedBlockException expected) {
        malformed++;
      } catch (Throwable unexpected) {
        fail(
            "mutation "
                + mutation
                + " of a "
                + sample.context()
                + " block raised "
                + unexpected
                + "; payload "
                + HexFormat.of().formatHex(bytes),
            unexpected);
      }
    }
    assertTrue(malformed > MUTATIONS / 10, "only " + malformed + " mutations detected");
  }

  private static List<Sample> samples(DataBlockEncoding encoding, Random random) {
    List<Sample> samples = new ArrayList<>();
    for (int switches = 0; switches < 8; switches++) {
      EncodingContext context =
          new EncodingContext((switches & 1) != 0, (switches & 2) != 0, (switches & 4) != 0);
      List<KeyValue> cells = new ArrayList<>();
      BlockEncoder encoder = Encodings.newEncoder(encoding, context);
      for (CellSpec spec :
          RandomBlockCells.generate(
              random, 1 + random.nextInt(MAX_CELLS), context.includesTags(), false)) {
        KeyValue cell = spec.toKeyValue();
        cells.add(cell);
        encoder.append(cell);
      }
      samples.add(new Sample(context, encoder.finishBlock(), cells));
    }
    return samples;
  }

  /** Truncates the payload, flips a few of its bytes (often in the header), or both. */
  private static byte[] mutate(Random random, byte[] payload) {
    int kind = random.nextInt(3);
    byte[] bytes =
        kind == 0 ? Arrays.copyOf(payload, random.nextInt(payload.length)) : payload.clone();
    if (kind != 0 && bytes.length > 0) {
      int flips = 1 + random.nextInt(4);
      for (int i = 0; i < flips; i++) {
        int span = random.nextBoolean() ? Math.min(HEADER_BIAS, bytes.length) : bytes.length;
        bytes[random.nextInt(span)] ^= (byte) (1 + random.nextInt(255));
      }
      if (kind == 2) {
        bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
      }
    }
    return bytes;
  }

  private static void exercise(
      BlockSeeker seeker, byte[] bytes, List<KeyValue> cells, Random random) {
    seeker.setBlock(Buf.wrap(bytes));
    if (random.nextBoolean()) {
      seeker.indexBlock();
    }
    read(seeker.firstKeyInBlock());
    seeker.rewind();
    while (seeker.isValid()) {
      read(seeker.current());
      seeker.next();
    }
    for (int probe = 0; probe < PROBES; probe++) {
      KeyValue key = cells.get(random.nextInt(cells.size()));
      seeker.seekToKeyInBlock(key, random.nextBoolean());
      read(seeker.current());
      if (seeker.next()) {
        read(seeker.current());
      }
    }
  }

  /** Touches every part of a cell, as a scanner or a copy would. */
  private static void read(Cell cell) {
    KeyValue copy = KeyValue.copyOf(cell);
    copy.toString();
    cell.timestamp();
    cell.typeByte();
    cell.sequenceId();
    cell.valueArray();
    cell.tagsArray();
  }
}
