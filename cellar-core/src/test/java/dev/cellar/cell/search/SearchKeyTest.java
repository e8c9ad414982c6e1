package dev.cellar.cell.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class SearchKeyTest {

  private static byte[] random(Random random, int maxLength) {
    byte[] bytes = new byte[random.nextInt(maxLength + 1)];
    random.nextBytes(bytes);
    return bytes;
  }

  /** One search key reused for columns of every size gives HBase's last-on-column key each time. */
  @Test
  void lastOnColumnIsTheColumnsLastKeyWhateverTheCellBefore(TestSeed seed) {
    Random random = new Random(seed.value());
    SearchKey key = new SearchKey();
    for (int i = 0; i < 2000; i++) {
      byte[] row = random(random, 40);
      if (row.length == 0) {
        row = new byte[] {1};
      }
      byte[] family = random(random, 12);
      if (family.length == 0) {
        family = new byte[] {2};
      }
      byte[] qualifier = random(random, 60);
      KeyValue cell =
          KeyValue.create(
              row,
              family,
              qualifier,
              random.nextLong() & Long.MAX_VALUE,
              CellType.PUT,
              random(random, 30));
      Cell built = key.lastOnColumn(cell);
      KeyValue expected = KeyValue.lastOnColumn(row, family, qualifier);
      assertEquals(
          0,
          CellComparator.compareKeyIgnoringSequenceId(built, expected),
          "built " + built + " expected " + expected);
      assertEquals(expected.keyLength(), built.keyLength());
      assertEquals(CellType.MINIMUM, built.type());
      assertEquals(KeyValue.OLDEST_TIMESTAMP, built.timestamp());
    }
  }
}
