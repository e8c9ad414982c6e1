package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.KeyValue;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The filters beyond the basic ones (timestamps, inclusive stop, column prefixes, column count,
 * column range, skip, single-column exclude, column value) held against HBase's own on random rows,
 * step by step ({@link TwinDriver}).
 */
@ExtendWith(TestSeedExtension.class)
class MoreFiltersTest {

  private static final byte[] QUALIFIER_BYTES = {'a', 'b', 'c', 0};
  private static final byte[] VALUE_BYTES = {'a', 'b', 1, (byte) 0x80};

  private static void agree(TestSeed seed, Function<SplittableRandom, Filter> filters)
      throws Exception {
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < 1_500; round++) {
      Filter filter = filters.apply(random);
      List<KeyValue> cells = TwinDriver.randomCells(random, 1 + random.nextInt(40), VALUE_BYTES);
      TwinDriver.drive(filter, HBaseTwins.filter(filter), cells, "round " + round + ": " + filter);
    }
  }

  private static byte[] qualifier(SplittableRandom random) {
    return TwinDriver.randomBytes(random, QUALIFIER_BYTES, 0, 2);
  }

  private static ByteArrayComparable comparator(SplittableRandom random) {
    byte[] value = TwinDriver.randomBytes(random, VALUE_BYTES, 0, 3);
    return random.nextBoolean() ? new BinaryComparator(value) : new BinaryPrefixComparator(value);
  }

  private static CompareOperator operator(SplittableRandom random) {
    return CompareOperator.values()[random.nextInt(CompareOperator.values().length - 1)];
  }

  @Test
  void timestampsFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random -> {
          List<Long> timestamps = new ArrayList<>();
          for (int i = random.nextInt(4); i > 0; i--) {
            timestamps.add((long) random.nextInt(8));
          }
          return new TimestampsFilter(timestamps, random.nextBoolean());
        });
  }

  @Test
  void inclusiveStopFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random ->
            new InclusiveStopFilter(
                TwinDriver.randomBytes(random, new byte[] {'a', 'b', 'c', 0}, 0, 3)));
  }

  @Test
  void multipleColumnPrefixFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random -> {
          List<byte[]> prefixes = new ArrayList<>();
          for (int i = random.nextInt(4); i > 0; i--) {
            byte[] prefix = qualifier(random);
            if (prefixes.stream().noneMatch(p -> java.util.Arrays.equals(p, prefix))) {
              prefixes.add(prefix);
            }
          }
          return new MultipleColumnPrefixFilter(prefixes);
        });
  }

  @Test
  void columnCountGetFilter(TestSeed seed) throws Exception {
    agree(seed, random -> new ColumnCountGetFilter(random.nextInt(4)));
  }

  @Test
  void columnRangeFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random ->
            new ColumnRangeFilter(
                random.nextInt(4) == 0 ? null : qualifier(random),
                random.nextBoolean(),
                random.nextInt(4) == 0 ? null : qualifier(random),
                random.nextBoolean()));
  }

  @Test
  void skipFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random ->
            new SkipFilter(
                switch (random.nextInt(3)) {
                  case 0 -> new ValueFilter(operator(random), comparator(random));
                  case 1 -> new QualifierFilter(operator(random), comparator(random));
                  default -> new ColumnPrefixFilter(qualifier(random));
                }));
  }

  @Test
  void singleColumnValueExcludeFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random -> {
          SingleColumnValueFilter test =
              new SingleColumnValueFilter(
                  Bytes.toBytes(random.nextBoolean() ? "f" : "g"),
                  qualifier(random),
                  operator(random),
                  comparator(random));
          test.setFilterIfMissing(random.nextBoolean());
          test.setLatestVersionOnly(random.nextBoolean());
          return new SingleColumnValueExcludeFilter(test);
        });
  }

  @Test
  void columnValueFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random ->
            new ColumnValueFilter(
                Bytes.toBytes(random.nextBoolean() ? "f" : "g"),
                qualifier(random),
                CompareOperator.values()[random.nextInt(CompareOperator.values().length)],
                comparator(random)));
  }

  @Test
  void firstKeyValueMatchingQualifiersFilter(TestSeed seed) throws Exception {
    agree(
        seed,
        random -> {
          List<byte[]> qualifiers = new ArrayList<>();
          for (int i = random.nextInt(3); i > 0; i--) {
            qualifiers.add(qualifier(random));
          }
          return new FirstKeyValueMatchingQualifiersFilter(qualifiers);
        });
  }

  @Test
  void argumentsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> new TimestampsFilter(List.of(-1L), false));
    assertThrows(
        IllegalArgumentException.class,
        () -> new MultipleColumnPrefixFilter(List.of(new byte[] {1}, new byte[] {1})));
    assertThrows(IllegalArgumentException.class, () -> new ColumnCountGetFilter(-1));
  }
}
