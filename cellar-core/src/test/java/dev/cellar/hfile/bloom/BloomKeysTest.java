package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.BloomType;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class BloomKeysTest {

  private static final byte[] ROW = {'r', 'o', 'w', (byte) 0x90};
  private static final byte[] QUALIFIER = {'q', 0};

  private static KeyValue cell(CellType type) {
    return KeyValue.create(ROW, new byte[] {'f', 'a', 'm'}, QUALIFIER, 7, type, new byte[] {1});
  }

  @Test
  void keysPerSpec() {
    KeyValue cell = cell(CellType.PUT);
    assertArrayEquals(ROW, BloomKeys.of(BloomType.ROW, 0, cell));
    assertArrayEquals(
        new byte[] {'r', 'o'}, BloomKeys.of(BloomType.ROWPREFIX_FIXED_LENGTH, 2, cell));
    assertArrayEquals(ROW, BloomKeys.of(BloomType.ROWPREFIX_FIXED_LENGTH, 9, cell));
    byte[] expected = {
      0, 4, 'r', 'o', 'w', (byte) 0x90, 0, 'q', 0, 0x7F, -1, -1, -1, -1, -1, -1, -1, -1
    };
    assertArrayEquals(expected, BloomKeys.of(BloomType.ROWCOL, 0, cell));
    assertArrayEquals(expected, BloomKeys.rowCol(ROW, QUALIFIER));
    assertArrayEquals(new byte[] {'r', 'o'}, BloomKeys.rowPrefix(ROW, 2));
    assertThrows(IllegalArgumentException.class, () -> BloomKeys.of(BloomType.NONE, 0, cell));
    assertThrows(
        IllegalArgumentException.class, () -> BloomKeys.rowCol(new byte[40_000], QUALIFIER));
  }

  @Test
  void deleteFamilyMarkers() {
    assertTrue(BloomKeys.isDeleteFamilyMarker(cell(CellType.DELETE_FAMILY)));
    assertTrue(BloomKeys.isDeleteFamilyMarker(cell(CellType.DELETE_FAMILY_VERSION)));
    for (CellType type : List.of(CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN)) {
      assertFalse(BloomKeys.isDeleteFamilyMarker(cell(type)));
    }
  }

  /** The allocation-free comparison agrees with comparing the built keys in the bloom's order. */
  @Test
  void compareAgreesWithTheBuiltKeys(TestSeed seed) {
    Random random = new Random(seed.value());
    for (int i = 0; i < 5_000; i++) {
      KeyValue left =
          KeyValue.create(
              BloomCells.randomRow(random),
              BloomCells.FAMILY,
              BloomCells.randomQualifier(random),
              1,
              CellType.PUT,
              new byte[0]);
      KeyValue right =
          KeyValue.create(
              BloomCells.randomRow(random),
              BloomCells.FAMILY,
              BloomCells.randomQualifier(random),
              1,
              CellType.PUT,
              new byte[0]);
      int prefix = 1 + random.nextInt(4);
      for (BloomType type :
          List.of(BloomType.ROW, BloomType.ROWCOL, BloomType.ROWPREFIX_FIXED_LENGTH)) {
        byte[] leftKey = BloomKeys.of(type, prefix, left);
        byte[] rightKey = BloomKeys.of(type, prefix, right);
        int expected =
            Integer.signum(
                KeyOrder.of(type)
                    .compare(MemorySegment.ofArray(leftKey), MemorySegment.ofArray(rightKey)));
        assertEquals(
            expected,
            Integer.signum(BloomKeys.compare(type, prefix, left, rightKey)),
            () -> type + " " + left + " vs " + right);
      }
      int rows = Bytes.compare(left.rowArray(), right.rowArray());
      int columns = rows != 0 ? rows : Bytes.compare(left.qualifierArray(), right.qualifierArray());
      byte[] leftRowCol = BloomKeys.rowCol(left);
      byte[] rightRowCol = BloomKeys.rowCol(right);
      assertEquals(
          Integer.signum(columns),
          Integer.signum(
              CellComparator.compareKeys(
                  MemorySegment.ofArray(leftRowCol),
                  0,
                  leftRowCol.length,
                  MemorySegment.ofArray(rightRowCol),
                  0,
                  rightRowCol.length)),
          "ROWCOL keys order by row, then qualifier");
    }
  }
}
