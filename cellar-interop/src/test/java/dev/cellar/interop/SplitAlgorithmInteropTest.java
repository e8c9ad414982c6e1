package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.SplitAlgorithm;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cellar's split algorithms give HBase's own keys: {@code RegionSplitter}'s HexStringSplit,
 * DecimalStringSplit and UniformSplit for each number of regions, and {@code Bytes.split} as
 * HBase's Admin uses it to split a table between two keys.
 */
class SplitAlgorithmInteropTest {

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 5, 7, 10, 16, 100, 255})
  void everyAlgorithmCutsWhereHBasesDoes(int regions) {
    assertArrayEquals(
        new RegionSplitter.HexStringSplit().split(regions),
        SplitAlgorithm.HEX_STRING.split(regions),
        "HexStringSplit into " + regions);
    assertArrayEquals(
        new RegionSplitter.DecimalStringSplit().split(regions),
        SplitAlgorithm.DECIMAL_STRING.split(regions),
        "DecimalStringSplit into " + regions);
    assertArrayEquals(
        new RegionSplitter.UniformSplit().split(regions),
        SplitAlgorithm.UNIFORM.split(regions),
        "UniformSplit into " + regions);
    assertEquals(SplitAlgorithm.HEX_STRING, SplitAlgorithm.named("HexStringSplit"));
    assertEquals(
        SplitAlgorithm.UNIFORM,
        SplitAlgorithm.named("org.apache.hadoop.hbase.util.RegionSplitter.UniformSplit"));
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 4, 5, 10, 50})
  void aRangeIsCutWhereHBasesAdminCutsIt(int regions) {
    byte[][] pairs = {
      Bytes.toBytes("aaa"),
      Bytes.toBytes("zzz"),
      Bytes.toBytes("00000000"),
      Bytes.toBytes("99999999"),
      new byte[] {0},
      new byte[] {(byte) 0xff, 0x10},
    };
    for (int i = 0; i < pairs.length; i += 2) {
      byte[][] expected =
          regions == 3
              ? new byte[][] {pairs[i], pairs[i + 1]}
              : Bytes.split(pairs[i], pairs[i + 1], regions - 3);
      assertArrayEquals(
          expected,
          SplitAlgorithm.between(pairs[i], pairs[i + 1], regions),
          Bytes.toStringBinary(pairs[i]) + " to " + Bytes.toStringBinary(pairs[i + 1]));
    }
  }
}
