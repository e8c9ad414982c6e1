package dev.cellar.cell.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Row words decide only what the rows' byte order decides, never against it. */
@ExtendWith(TestSeedExtension.class)
class RowWordsTest {

  /** Bytes that make zero padding and sign mistakes show. */
  private static final byte[] ALPHABET = {0x00, 0x01, 'a', 0x7F, (byte) 0x80, (byte) 0xFF};

  @Test
  void wordsNeverContradictTheRowOrder(TestSeed seed) {
    Random random = new Random(seed.value());
    int decided = 0;
    for (int round = 0; round < 20_000; round++) {
      byte[] prefix = row(random, random.nextInt(6));
      byte[] entryRow = concat(prefix, row(random, random.nextInt(7)));
      byte[] keyRow =
          random.nextInt(8) == 0
              ? row(random, random.nextInt(10))
              : concat(prefix, row(random, random.nextInt(7)));
      MemorySegment entry = MemorySegment.ofArray(entryRow);
      int entryWord = RowWords.word(entry, 0, entryRow.length, prefix.length);
      long keyWord = RowWords.keyWord(KeyValue.firstOnRow(keyRow), MemorySegment.ofArray(prefix));
      boolean keyHasPrefix =
          keyRow.length >= prefix.length
              && Arrays.equals(keyRow, 0, prefix.length, prefix, 0, prefix.length);
      String what =
          Arrays.toString(keyRow)
              + " vs "
              + Arrays.toString(entryRow)
              + " after "
              + Arrays.toString(prefix);
      assertEquals(keyHasPrefix, keyWord != RowWords.NONE, what);
      int byWords = RowWords.compare(keyWord, entryWord);
      int byBytes = Arrays.compareUnsigned(keyRow, entryRow);
      if (byWords != 0) {
        decided++;
        assertEquals(Integer.signum(byBytes), Integer.signum(byWords), what);
      }
      if (keyHasPrefix && byBytes != 0 && differsWithinWord(keyRow, entryRow, prefix.length)) {
        assertTrue(byWords != 0, "rows differing within the word are decided: " + what);
      }
    }
    assertTrue(decided > 5_000, "most random pairs are decided by their words: " + decided);
  }

  @Test
  void noPrefixMeansNoKeyWord() {
    assertEquals(RowWords.NONE, RowWords.keyWord(KeyValue.firstOnRow(new byte[] {1}), null));
  }

  /** Whether the rows' first difference lies in the word's bytes (a missing byte counts as 0). */
  private static boolean differsWithinWord(byte[] a, byte[] b, int shared) {
    for (int i = shared; i < shared + RowWords.BYTES; i++) {
      int x = i < a.length ? Byte.toUnsignedInt(a[i]) : 0;
      int y = i < b.length ? Byte.toUnsignedInt(b[i]) : 0;
      if (x != y) {
        return true;
      }
    }
    return false;
  }

  private static byte[] row(Random random, int length) {
    byte[] row = new byte[length];
    for (int i = 0; i < length; i++) {
      row[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return row;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
