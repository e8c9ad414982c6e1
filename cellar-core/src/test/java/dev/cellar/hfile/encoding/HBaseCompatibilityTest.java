package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our encoders write the bytes HBase 2.6's encoders write, and our seekers read HBase's bytes back
 * cell for cell, for every encoding and every combination of tags, mvcc and tag compression.
 */
@ExtendWith(TestSeedExtension.class)
class HBaseCompatibilityTest {

  private static final int BLOCKS = 40;
  private static final int MAX_CELLS = 250;

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
  void encodesLikeHBaseAndDecodesHBaseBlocks(
      DataBlockEncoding encoding, EncodingContext context, TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    BlockEncoder encoder = Encodings.newEncoder(encoding, context);
    BlockSeeker seeker = Encodings.newSeeker(encoding, context);
    for (int block = 0; block < BLOCKS; block++) {
      List<CellSpec> cells =
          RandomBlockCells.generate(
              random, 1 + random.nextInt(MAX_CELLS), context.includesTags(), block < 2);
      checkBlock(encoder, seeker, encoding, context, cells, "block " + block);
    }
  }

  private static void checkBlock(
      BlockEncoder encoder,
      BlockSeeker seeker,
      DataBlockEncoding encoding,
      EncodingContext context,
      List<CellSpec> specs,
      String message)
      throws Exception {
    HBaseBlocks.Encoded hbase = HBaseBlocks.encode(encoding, context, specs);
    List<KeyValue> cells = new ArrayList<>(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      KeyValue cell = specs.get(i).toKeyValue();
      cells.add(cell);
      encoder.append(cell);
      int at = i;
      assertEquals(hbase.encodedSizes()[i], encoder.encodedSize(), () -> message + " #" + at);
      assertEquals(hbase.unencodedSizes()[i], encoder.unencodedSize(), () -> message + " #" + at);
    }
    assertEquals(cells.size(), encoder.cellCount(), message);
    byte[] ours = encoder.finishBlock();
    assertArrayEquals(hbase.payload(), ours, message + ": payload differs from HBase's");
    assertEquals(0, encoder.cellCount(), message);

    seeker.setBlock(Buf.wrap(hbase.payload()));
    CellAssertions.assertSameKey(cells.get(0), seeker.firstKeyInBlock(), () -> message);
    for (int i = 0; i < cells.size(); i++) {
      int at = i;
      assertTrue(i == 0 || seeker.next(), () -> message + " #" + at);
      CellAssertions.assertSameCell(
          cells.get(i), seeker.current(), context, () -> message + " #" + at);
    }
    assertFalse(seeker.next(), message + " after the last cell");
    assertFalse(seeker.isValid(), message);
  }
}
