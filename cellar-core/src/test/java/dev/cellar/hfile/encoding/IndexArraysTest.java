package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IndexArraysTest {

  @Test
  void anArrayComesInItsClassAndIsTakenAgainOnceGivenBack() {
    long[] array = IndexArrays.take(IndexArrays.CLASS_LONGS + 1);
    assertEquals(2 * IndexArrays.CLASS_LONGS, array.length, "rounded up to its class");
    long kept = IndexArrays.keptBytes();
    IndexArrays.give(array);
    assertEquals(kept + (long) array.length * Long.BYTES, IndexArrays.keptBytes());
    assertSame(array, IndexArrays.take(2 * IndexArrays.CLASS_LONGS - 3), "same class, same array");
    assertEquals(kept, IndexArrays.keptBytes());
    assertNotSame(array, IndexArrays.take(3 * IndexArrays.CLASS_LONGS), "another class");
  }

  @Test
  void byteArraysHaveClassesOfTheirOwn() {
    byte[] bytes = IndexArrays.takeBytes(IndexArrays.CLASS_BYTES + 1);
    assertEquals(2 * IndexArrays.CLASS_BYTES, bytes.length, "rounded up to its class");
    long[] longs = IndexArrays.take(2 * IndexArrays.CLASS_LONGS);
    long kept = IndexArrays.keptBytes();
    IndexArrays.giveBytes(bytes);
    assertEquals(kept + bytes.length, IndexArrays.keptBytes());
    IndexArrays.give(longs);
    assertSame(bytes, IndexArrays.takeBytes(2 * IndexArrays.CLASS_BYTES), "same class, same array");
    assertSame(longs, IndexArrays.take(2 * IndexArrays.CLASS_LONGS), "the long[] kept apart");
    assertEquals(kept, IndexArrays.keptBytes());
    byte[] large = IndexArrays.takeBytes(IndexArrays.MAX_POOLED_BYTES + 1);
    assertEquals(IndexArrays.MAX_POOLED_BYTES + 1, large.length);
    IndexArrays.giveBytes(large);
    IndexArrays.giveBytes(new byte[IndexArrays.CLASS_BYTES + 1]);
    assertEquals(kept, IndexArrays.keptBytes(), "arrays outside the classes are not kept");
  }

  @Test
  void arraysOutsideTheClassesAreNeitherRoundedNorKept() {
    long[] large = IndexArrays.take(IndexArrays.MAX_POOLED_LONGS + 1);
    assertEquals(IndexArrays.MAX_POOLED_LONGS + 1, large.length);
    long kept = IndexArrays.keptBytes();
    IndexArrays.give(large);
    IndexArrays.give(new long[IndexArrays.CLASS_LONGS + 1]);
    IndexArrays.give(new long[0]);
    assertEquals(kept, IndexArrays.keptBytes());
  }

  @Test
  void thePoolKeepsNoMoreThanItsBound() {
    int longs = IndexArrays.MAX_POOLED_LONGS;
    long room = IndexArrays.MAX_KEPT_BYTES / ((long) longs * Long.BYTES);
    long[][] arrays = new long[(int) room + 3][];
    for (int i = 0; i < arrays.length; i++) {
      arrays[i] = IndexArrays.take(longs);
    }
    for (long[] array : arrays) {
      IndexArrays.give(array);
    }
    assertTrue(
        IndexArrays.keptBytes() <= IndexArrays.MAX_KEPT_BYTES, "kept " + IndexArrays.keptBytes());
    for (int i = 0; i < arrays.length; i++) {
      IndexArrays.take(longs);
    }
  }
}
