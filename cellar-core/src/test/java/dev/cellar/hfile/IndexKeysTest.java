package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class IndexKeysTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static KeyValue put(String row, String family, String qualifier, long ts) {
    return KeyValue.create(b(row), b(family), b(qualifier), ts, CellType.PUT, new byte[0]);
  }

  @Test
  void separatorsFollowHBasesRules() {
    assertArrayEquals(b("row0004"), IndexKeys.separator(b("row0003"), b("row0004")));
    assertArrayEquals(b("ab\0"), IndexKeys.separator(b("ab"), b("abc")));
    assertArrayEquals(b("b"), IndexKeys.separator(b("azzz"), b("c")));
    assertArrayEquals(b("a\u0081"), IndexKeys.separator(b("a\u0080zz"), b("a\u00ff")));
  }

  @Test
  void rowChangeGivesFirstOnRowOfTheSeparator() {
    byte[] mid = IndexKeys.midpoint(put("row0003", "f", "q", 5), put("row0004", "f", "q", 5));
    assertArrayEquals(IndexKeys.keyOf(KeyValue.firstOnRow(b("row0004"))), mid);
  }

  @Test
  void midpointSortsAfterTheLeftKeyAndNotAfterTheRightKey(TestSeed seed) {
    Random random = new Random(seed.value());
    String alphabet = "ab\u0000\u00ff";
    for (int trial = 0; trial < 20_000; trial++) {
      KeyValue left = randomCell(random, alphabet);
      KeyValue right = randomCell(random, alphabet);
      int order = CellComparator.compareKeyIgnoringSequenceId(left, right);
      if (order == 0) {
        continue;
      }
      if (order > 0) {
        KeyValue swap = left;
        left = right;
        right = swap;
      }
      byte[] mid = IndexKeys.midpoint(left, right);
      MemorySegment segment = MemorySegment.ofArray(mid);
      String where = "left=" + left + " right=" + right;
      assertTrue(CellComparator.compareKey(left, segment, 0, mid.length) < 0, where);
      assertTrue(CellComparator.compareKey(right, segment, 0, mid.length) >= 0, where);
    }
  }

  private static KeyValue randomCell(Random random, String alphabet) {
    return put(
        randomString(random, alphabet, 4),
        "f",
        randomString(random, alphabet, 3),
        random.nextInt(4));
  }

  private static String randomString(Random random, String alphabet, int maxLength) {
    StringBuilder out = new StringBuilder();
    int length = random.nextInt(maxLength + 1);
    for (int i = 0; i < length; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }
}
