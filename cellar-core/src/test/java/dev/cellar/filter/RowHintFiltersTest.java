package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * FuzzyRowFilter and MultiRowRangeFilter, whose seek hints jump between rows, held against HBase's
 * own on random rows ({@link TwinDriver}); MultiRowRangeFilter's ranges are also twinned as given,
 * unmerged, so HBase's merge is held against Cellar's.
 */
@ExtendWith(TestSeedExtension.class)
class RowHintFiltersTest {

  private static final byte[] ROW_BYTES = {'a', 'b', 'c', 0, (byte) 0xFF};

  @Test
  void fuzzyRowFilterAgreesWithHBase(TestSeed seed) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        hbaseFuzzyWorks(), "HBase's fuzzy fast path is off");
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 3_000; round++) {
      int keyLength = 1 + random.nextInt(2);
      List<FuzzyRowFilter.Pair> pairs = new ArrayList<>();
      for (int k = 1 + random.nextInt(3); k > 0; k--) {
        byte[] key = TwinDriver.randomBytes(random, ROW_BYTES, keyLength, keyLength);
        byte[] mask = new byte[keyLength];
        for (int i = 0; i < keyLength; i++) {
          mask[i] = (byte) random.nextInt(2);
        }
        pairs.add(new FuzzyRowFilter.Pair(key, mask));
      }
      FuzzyRowFilter filter = new FuzzyRowFilter(pairs);
      List<KeyValue> cells =
          TwinDriver.randomCells(
              random, 1 + random.nextInt(40), new byte[] {'v'}, keyLength, keyLength + 2);
      TwinDriver.drive(filter, HBaseTwins.filter(filter), cells, "round " + round + ": " + filter);
    }
  }

  /**
   * HBase's FuzzyRowFilter works as meant only where its unaligned fast path is on (the platforms
   * its servers run on); on a JVM where it is off (Unsafe withheld, as on recent JDKs), it treats
   * every mask byte as fixed. So the whole-filter comparison runs only where the path is on, and
   * the next-row computation, the intricate part, is always held against HBase's own static method,
   * given the mask as HBase's fast path prepares it.
   */
  private static boolean hbaseFuzzyWorks() throws ReflectiveOperationException {
    java.lang.reflect.Field unaligned =
        org.apache.hadoop.hbase.filter.FuzzyRowFilter.class.getDeclaredField("UNSAFE_UNALIGNED");
    unaligned.setAccessible(true);
    return unaligned.getBoolean(null);
  }

  @Test
  void fuzzyNextRowsMatchHBasesOnRandomRows(TestSeed seed) throws Exception {
    java.lang.reflect.Method next =
        org.apache.hadoop.hbase.filter.FuzzyRowFilter.class.getDeclaredMethod(
            "getNextForFuzzyRule", boolean.class, byte[].class, byte[].class, byte[].class);
    next.setAccessible(true);
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 20_000; round++) {
      int keyLength = 1 + random.nextInt(4);
      byte[] key = TwinDriver.randomBytes(random, ROW_BYTES, keyLength, keyLength);
      boolean[] fixed = new boolean[keyLength];
      byte[] hbaseMask = new byte[keyLength];
      byte[] hbaseKey = key.clone();
      for (int i = 0; i < keyLength; i++) {
        fixed[i] = random.nextBoolean();
        hbaseMask[i] = fixed[i] ? (byte) -1 : 0;
        hbaseKey[i] = fixed[i] ? key[i] : 0;
      }
      byte[] row = TwinDriver.randomBytes(random, ROW_BYTES, keyLength, keyLength + 3);
      byte[] expected = (byte[]) next.invoke(null, false, row, hbaseKey, hbaseMask);
      assertArrayEquals(
          expected,
          new FuzzyRowFilter.FuzzyKey(key, fixed).nextRow(row),
          "round " + round + ": row " + dev.cellar.cell.Bytes.toStringBinary(row));
    }
  }

  /**
   * Where HBase's filter cannot serve as the twin, the whole filter is held against the meaning: it
   * keeps exactly the rows some key matches, and no hint jumps over such a row.
   */
  @Test
  void fuzzyRowFilterKeepsTheMatchingRowsAndSkipsOnlyOthers(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 3_000; round++) {
      int keyLength = 1 + random.nextInt(3);
      List<FuzzyRowFilter.Pair> pairs = new ArrayList<>();
      List<FuzzyRowFilter.FuzzyKey> keys = new ArrayList<>();
      for (int k = 1 + random.nextInt(3); k > 0; k--) {
        byte[] key = TwinDriver.randomBytes(random, ROW_BYTES, keyLength, keyLength);
        byte[] mask = new byte[keyLength];
        boolean[] fixed = new boolean[keyLength];
        for (int i = 0; i < keyLength; i++) {
          mask[i] = (byte) random.nextInt(2);
          fixed[i] = mask[i] == 0;
        }
        pairs.add(new FuzzyRowFilter.Pair(key, mask));
        keys.add(new FuzzyRowFilter.FuzzyKey(key, fixed));
      }
      FuzzyRowFilter filter = new FuzzyRowFilter(pairs);
      java.util.TreeSet<byte[]> rowSet = new java.util.TreeSet<>(java.util.Arrays::compareUnsigned);
      for (int r = random.nextInt(60); r >= 0; r--) {
        rowSet.add(TwinDriver.randomBytes(random, ROW_BYTES, keyLength, keyLength + 2));
      }
      List<byte[]> rows = new ArrayList<>(rowSet);
      List<byte[]> expected = new ArrayList<>();
      for (byte[] row : rows) {
        java.lang.foreign.MemorySegment segment = java.lang.foreign.MemorySegment.ofArray(row);
        if (keys.stream().anyMatch(k -> k.matches(segment, 0, row.length))) {
          expected.add(row);
        }
      }
      List<byte[]> kept = new ArrayList<>();
      int i = 0;
      while (i < rows.size() && !filter.filterAllRemaining()) {
        filter.reset();
        KeyValue cell =
            KeyValue.create(
                rows.get(i),
                new byte[] {'f'},
                new byte[0],
                1,
                dev.cellar.cell.CellType.PUT,
                new byte[0]);
        if (filter.filterCell(cell) == Filter.ReturnCode.INCLUDE) {
          assertEquals(false, filter.filterRow());
          kept.add(rows.get(i));
          i++;
          continue;
        }
        assertEquals(true, filter.filterRow());
        dev.cellar.cell.Cell hint = filter.nextCellHint(cell);
        if (hint == null) {
          break;
        }
        byte[] target = hint.rowArray();
        assertEquals(true, java.util.Arrays.compareUnsigned(target, rows.get(i)) > 0, "hint ahead");
        while (i < rows.size() && java.util.Arrays.compareUnsigned(rows.get(i), target) < 0) {
          i++;
        }
      }
      assertEquals(
          expected.stream().map(dev.cellar.cell.Bytes::toStringBinary).toList(),
          kept.stream().map(dev.cellar.cell.Bytes::toStringBinary).toList(),
          "round " + round + ": " + filter);
    }
  }

  @Test
  void aShortRowReadsAsPaddedWithZeros() {
    FuzzyRowFilter.FuzzyKey key =
        new FuzzyRowFilter.FuzzyKey(new byte[] {'a', 'b', 'c'}, new boolean[] {true, false, true});
    assertArrayEquals(new byte[] {'a', 0, 'c'}, key.nextRow(new byte[] {'a'}));
    assertNull(key.nextRow(new byte[] {'b'}));
  }

  @Test
  void multiRowRangeFilterAgreesWithHBase(TestSeed seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 3_000; round++) {
      List<RowRange> ranges = new ArrayList<>();
      while (ranges.size() < 1 + random.nextInt(4)) {
        RowRange range =
            new RowRange(
                random.nextInt(6) == 0 ? null : TwinDriver.randomBytes(random, ROW_BYTES, 1, 2),
                random.nextBoolean(),
                random.nextInt(6) == 0 ? null : TwinDriver.randomBytes(random, ROW_BYTES, 1, 2),
                random.nextBoolean());
        if (range.isValid()) {
          ranges.add(range);
        }
      }
      MultiRowRangeFilter filter = new MultiRowRangeFilter(ranges);
      // HBase is given the ranges as Cellar merged them: HBase 2.6.1's own merge can turn an
      // exclusive stop inclusive when a range inside it ends inclusively, so merging is checked
      // on its own (mergedRangesHoldTheRowsOfTheRangesGiven).
      org.apache.hadoop.hbase.filter.Filter twin = HBaseTwins.filter(filter);
      List<KeyValue> cells =
          TwinDriver.randomCells(random, 1 + random.nextInt(40), new byte[] {'v'});
      TwinDriver.drive(filter, twin, cells, "round " + round + ": " + ranges + " as " + filter);
    }
  }

  @Test
  void mergedRangesHoldTheRowsOfTheRangesGiven(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 5_000; round++) {
      List<RowRange> ranges = new ArrayList<>();
      while (ranges.size() < 1 + random.nextInt(5)) {
        RowRange range =
            new RowRange(
                random.nextInt(6) == 0 ? null : TwinDriver.randomBytes(random, ROW_BYTES, 1, 2),
                random.nextBoolean(),
                random.nextInt(6) == 0 ? null : TwinDriver.randomBytes(random, ROW_BYTES, 1, 2),
                random.nextBoolean());
        boolean newStart =
            ranges.stream().noneMatch(r -> java.util.Arrays.equals(r.start(), range.start()));
        if (range.isValid() && newStart) {
          ranges.add(range);
        }
      }
      List<RowRange> merged = MultiRowRangeFilter.merge(ranges);
      for (int probe = 0; probe < 20; probe++) {
        byte[] row = TwinDriver.randomBytes(random, ROW_BYTES, 0, 3);
        java.lang.foreign.MemorySegment segment = java.lang.foreign.MemorySegment.ofArray(row);
        boolean inGiven = ranges.stream().anyMatch(r -> r.contains(segment, 0, row.length));
        boolean inMerged = merged.stream().anyMatch(r -> r.contains(segment, 0, row.length));
        assertEquals(
            inGiven,
            inMerged,
            ranges + " merged " + merged + " on " + dev.cellar.cell.Bytes.toStringBinary(row));
      }
    }
  }

  @Test
  void invalidRangesAndReversedScansAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new MultiRowRangeFilter(List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new MultiRowRangeFilter(
                List.of(new RowRange(new byte[] {2}, true, new byte[] {1}, true))));
    assertThrows(
        UnsupportedOperationException.class,
        () ->
            new MultiRowRangeFilter(List.of(new RowRange(null, true, null, false)))
                .setReversed(true));
    assertThrows(
        IllegalArgumentException.class,
        () -> new FuzzyRowFilter(List.of(new FuzzyRowFilter.Pair(new byte[] {1}, new byte[] {}))));
  }
}
