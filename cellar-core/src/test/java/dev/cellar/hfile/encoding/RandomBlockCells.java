package dev.cellar.hfile.encoding;

import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.cell.Tag;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Random cells of one family, sorted in HBase's order, shaped to reach every branch of the
 * encoders: rows and qualifiers sharing prefixes (and row lengths on both sides of 256, so the two
 * row-length bytes differ in one or both), equal, close, negative and far-apart timestamps, every
 * type, empty and repeated values, repeated tags from pools larger than the tag dictionary, and
 * sequence ids of every vlong size.
 */
final class RandomBlockCells {

  private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xFF};

  private static final int[] LONG_ROW_LENGTHS = {254, 255, 256, 257, 511, 512, 700};

  private static final long[] SEQUENCE_IDS = {
    0, 1, 2, 127, 128, 300, 1L << 40, Long.MAX_VALUE, -1, -1000
  };

  /** Bytes past 64 KiB, so that one value alone is larger than a default block. */
  static final int LARGE_VALUE = 64 * 1024 + 1;

  private RandomBlockCells() {}

  /**
   * Returns up to {@code count} cells, sorted by {@link CellComparator#INSTANCE}.
   *
   * @param withTags whether cells may carry tags
   * @param largeValues whether a few values may exceed 64 KiB
   */
  static List<CellSpec> generate(Random random, int count, boolean withTags, boolean largeValues) {
    byte[] family =
        random.nextInt(10) == 0
            ? bytes(random, KeyValueLayout.MAX_FAMILY_LENGTH)
            : bytes(random, 1 + random.nextInt(4));
    List<byte[]> rows = rows(random, 1 + random.nextInt(30));
    List<byte[]> qualifiers = pool(random, 1 + random.nextInt(15), 6, true);
    List<Tag> tagPool = tags(random, 1 + random.nextInt(300));
    int timestampMode = random.nextInt(4);
    long base = random.nextLong();
    CellType[] types = CellType.values();
    List<CellSpec> specs = new ArrayList<>(count);
    byte[] previousValue = new byte[0];
    for (int i = 0; i < count; i++) {
      byte[] value = value(random, previousValue, largeValues);
      previousValue = value;
      specs.add(
          new CellSpec(
              pick(random, rows),
              family,
              pick(random, qualifiers),
              timestamp(random, timestampMode, base),
              types[random.nextInt(types.length)],
              value,
              withTags ? cellTags(random, tagPool) : List.of(),
              SEQUENCE_IDS[random.nextInt(SEQUENCE_IDS.length)]));
    }
    return sorted(specs);
  }

  /** Returns the specs in HBase's cell order. */
  static List<CellSpec> sorted(List<CellSpec> specs) {
    record Entry(CellSpec spec, KeyValue cell) {}
    List<Entry> entries = new ArrayList<>();
    for (CellSpec spec : specs) {
      entries.add(new Entry(spec, spec.toKeyValue()));
    }
    entries.sort(Comparator.comparing(Entry::cell, CellComparator.INSTANCE));
    return entries.stream().map(Entry::spec).toList();
  }

  private static long timestamp(Random random, int mode, long base) {
    return switch (mode) {
      case 0 -> base;
      case 1 -> base + random.nextInt(300);
      case 2 ->
          switch (random.nextInt(6)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> -random.nextInt(1000);
            case 3 -> random.nextInt(3);
            default -> random.nextLong();
          };
      default -> random.nextBoolean() ? base : base ^ (1L << random.nextInt(64));
    };
  }

  private static byte[] value(Random random, byte[] previous, boolean largeValues) {
    int choice = random.nextInt(60);
    if (largeValues && choice == 0) {
      byte[] large = new byte[LARGE_VALUE + random.nextInt(20_000)];
      random.nextBytes(large);
      return large;
    }
    return switch (choice % 4) {
      case 0 -> new byte[0];
      case 1 -> previous;
      default -> bytes(random, 1 + random.nextInt(30));
    };
  }

  private static List<Tag> cellTags(Random random, List<Tag> pool) {
    int count = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(3);
    List<Tag> tags = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      tags.add(pick(random, pool));
    }
    return tags;
  }

  private static List<Tag> tags(Random random, int size) {
    List<Tag> pool = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      int length = random.nextInt(50) == 0 ? 300 : random.nextInt(13);
      pool.add(new Tag((byte) random.nextInt(256), bytes(random, length)));
    }
    return pool;
  }

  private static List<byte[]> rows(Random random, int size) {
    List<byte[]> rows = pool(random, size, 12, random.nextInt(8) == 0);
    for (int i = 0; i < rows.size(); i++) {
      if (random.nextInt(8) == 0) {
        byte[] row = rows.get(i);
        int length = LONG_ROW_LENGTHS[random.nextInt(LONG_ROW_LENGTHS.length)];
        byte[] longRow = Arrays.copyOf(row, length);
        for (int j = row.length; j < length; j++) {
          longRow[j] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        rows.set(i, longRow);
      }
    }
    return rows;
  }

  /**
   * A pool of byte strings: random ones plus extensions of earlier ones, so that prefixes are
   * shared; with {@code withEmpty}, the empty string is one of them.
   */
  private static List<byte[]> pool(Random random, int size, int maxExtra, boolean withEmpty) {
    List<byte[]> pool = new ArrayList<>();
    if (withEmpty) {
      pool.add(new byte[0]);
    }
    while (pool.size() < size) {
      byte[] base = pool.isEmpty() || random.nextBoolean() ? new byte[0] : pick(random, pool);
      byte[] next = Arrays.copyOf(base, base.length + 1 + random.nextInt(maxExtra));
      for (int i = base.length; i < next.length; i++) {
        next[i] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      pool.add(next);
    }
    return pool;
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return bytes;
  }

  private static <T> T pick(Random random, List<T> pool) {
    return pool.get(random.nextInt(pool.size()));
  }
}
