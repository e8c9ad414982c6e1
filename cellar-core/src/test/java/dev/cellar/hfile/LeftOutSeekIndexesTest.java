package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.EncodingContext;
import dev.cellar.hfile.encoding.Encodings;
import dev.cellar.hfile.encoding.SeekIndex;
import dev.cellar.memory.Buf;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * {@link LeftOutSeekIndexes}: a block's index is asked for at its second seek without one, found
 * only under its own offset, and replaced by another block's that takes its slot; the table is
 * sized from the file's data; the indexes kept stay within their heap budget.
 */
class LeftOutSeekIndexesTest {

  /** A real (NONE) index of a one-cell block, to keep and find. */
  private static SeekIndex anIndex() {
    KeyValue cell =
        KeyValue.create(
            "r".getBytes(), "f".getBytes(), "q".getBytes(), 1, CellType.PUT, "v".getBytes());
    MemorySegment payload = MemorySegment.ofArray(cell.segment().toArray(ValueLayout.JAVA_BYTE));
    BlockSeeker seeker =
        Encodings.newSeeker(DataBlockEncoding.NONE, new EncodingContext(false, false, false));
    seeker.setBlock(Buf.wrap(payload));
    return seeker.indexBlockSparsely();
  }

  @Test
  void theSecondSeekAsksForTheIndexAndOnlyItsOffsetFindsIt() {
    LeftOutSeekIndexes indexes = new LeftOutSeekIndexes(16, new HeapBudget(1 << 20));
    assertFalse(indexes.secondSeek(4096));
    assertTrue(indexes.secondSeek(4096));
    assertFalse(indexes.secondSeek(4096), "the mark is spent once the build is asked for");
    assertNull(indexes.find(4096));
    SeekIndex index = anIndex();
    indexes.put(4096, index);
    assertSame(index, indexes.find(4096));
    assertNull(indexes.find(4096 + 16 * 65536L));
  }

  @Test
  void aBlockWhoseSlotsAreTakenReplacesTheEntryInItsSecond() {
    LeftOutSeekIndexes indexes = new LeftOutSeekIndexes(1, new HeapBudget(1 << 20));
    SeekIndex first = anIndex();
    SeekIndex second = anIndex();
    SeekIndex third = anIndex();
    indexes.put(0, first);
    assertSame(first, indexes.find(0));
    indexes.put(65536, second);
    assertNull(indexes.find(0));
    assertSame(second, indexes.find(65536));
    indexes.put(65536, third);
    assertSame(third, indexes.find(65536));
    assertFalse(indexes.secondSeek(0));
    assertFalse(indexes.secondSeek(65536), "another block's seek resets the slot's mark");
    assertTrue(indexes.secondSeek(65536));
  }

  @Test
  void blocksSharingOneSlotKeepTheirIndexesInTheirSecond() {
    LeftOutSeekIndexes indexes = new LeftOutSeekIndexes(1 << 12, new HeapBudget(1 << 30));
    long[] offsets = new long[800];
    SeekIndex[] kept = new SeekIndex[offsets.length];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = 65_621L * i;
      kept[i] = anIndex();
      indexes.put(offsets[i], kept[i]);
    }
    int found = 0;
    for (int i = 0; i < offsets.length; i++) {
      SeekIndex index = indexes.find(offsets[i]);
      assertTrue(index == null || index == kept[i], "block " + i + " found another's index");
      found += index == null ? 0 : 1;
    }
    assertTrue(
        found >= offsets.length * 97 / 100,
        found + " of " + offsets.length + " blocks kept their index at a load of a fifth");
  }

  @Test
  void tablesHaveAboutFourSlotsPerBlockOfData() {
    assertEquals(16, LeftOutSeekIndexes.forData(0).slots());
    assertEquals(65536, LeftOutSeekIndexes.forData(1L << 30).slots());
    assertEquals(131072, LeftOutSeekIndexes.forData((1L << 30) + 16384).slots());
    assertEquals(1 << 22, LeftOutSeekIndexes.forData(1L << 50).slots());
    assertThrows(
        IllegalArgumentException.class, () -> new LeftOutSeekIndexes(12, new HeapBudget(0)));
  }

  @Test
  void indexesStayWithinTheirBudgetAndGiveItBackWhenDropped() {
    SeekIndex index = anIndex();
    long each = index.heapSize() + 32;
    HeapBudget budget = new HeapBudget(3 * each);
    LeftOutSeekIndexes indexes = new LeftOutSeekIndexes(1 << 10, budget);
    LeftOutSeekIndexes other = new LeftOutSeekIndexes(1 << 10, budget);
    assertTrue(indexes.put(0, index));
    assertTrue(indexes.put(65_536, anIndex()));
    assertTrue(other.put(0, anIndex()));
    assertEquals(3 * each, budget.used());
    assertFalse(other.put(65_536, anIndex()), "a fourth index passes the budget");
    assertNull(other.find(65_536));
    assertTrue(indexes.put(0, anIndex()), "replacing an index takes no more");
    assertEquals(3 * each, budget.used());
    indexes.clear();
    assertNull(indexes.find(0));
    assertEquals(each, budget.used());
    assertTrue(other.put(65_536, anIndex()));
    other.clear();
    assertEquals(0, budget.used());
  }
}
