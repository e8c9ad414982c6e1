package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.io.util.LRUDictionary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The tag dictionary hands out the indices HBase's {@code LRUDictionary} hands out, through
 * insertions, hits, lookups by index, evictions once full, and clears.
 */
@ExtendWith(TestSeedExtension.class)
class TagDictionaryTest {

  private static final int ROUNDS = 30;
  private static final int OPERATIONS = 3000;

  @Test
  void behavesLikeHBasesLruDictionary(TestSeed seed) {
    Random random = new Random(seed.value());
    for (int round = 0; round < ROUNDS; round++) {
      LRUDictionary hbase = new LRUDictionary();
      hbase.init(Byte.MAX_VALUE);
      TagDictionary ours = new TagDictionary();
      List<byte[]> pool = pool(random, 1 + random.nextInt(400));
      for (int operation = 0; operation < OPERATIONS; operation++) {
        int choice = random.nextInt(20);
        if (choice == 0) {
          hbase.clear();
          ours.clear();
        } else if (choice < 6 && ours.size() > 0) {
          short index = (short) random.nextInt(ours.size());
          byte[] expected = hbase.getEntry(index);
          ours.use(index);
          byte[] actual =
              ours.entry(index).asSlice(0, ours.length(index)).toArray(ValueLayout.JAVA_BYTE);
          assertArrayEquals(expected, actual, "entry " + index);
        } else {
          byte[] entry = pool.get(random.nextInt(pool.size()));
          int expected = hbase.findEntry(entry, 0, entry.length);
          int actual = ours.findOrAdd(MemorySegment.ofArray(entry), 0, entry.length);
          assertEquals(expected, actual, "operation " + operation);
        }
      }
    }
  }

  private static List<byte[]> pool(Random random, int size) {
    List<byte[]> pool = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      byte[] entry = new byte[random.nextInt(5)];
      for (int j = 0; j < entry.length; j++) {
        entry[j] = (byte) random.nextInt(4);
      }
      pool.add(entry);
    }
    return pool;
  }
}
