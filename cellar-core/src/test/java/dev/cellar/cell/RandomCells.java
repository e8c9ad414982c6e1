package dev.cellar.cell;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random cell contents built to stress the comparator: few distinct rows, families and qualifiers
 * (so most comparisons reach the later fields), shared prefixes, empty parts, bytes on both sides
 * of 0x80, every type, colliding timestamps and sequence ids.
 */
final class RandomCells {

  /** One cell's content, buildable as our {@link KeyValue} and as HBase's. */
  record Spec(
      byte[] row,
      byte[] family,
      byte[] qualifier,
      long timestamp,
      CellType type,
      byte[] value,
      long sequenceId) {

    KeyValue toKeyValue() {
      return KeyValue.create(row, family, qualifier, timestamp, type, value)
          .withSequenceId(sequenceId);
    }

    org.apache.hadoop.hbase.KeyValue toHBase() {
      org.apache.hadoop.hbase.KeyValue kv =
          new org.apache.hadoop.hbase.KeyValue(
              row,
              family,
              qualifier,
              timestamp,
              org.apache.hadoop.hbase.KeyValue.Type.codeToType(type.code()),
              value);
      kv.setSequenceId(sequenceId);
      return kv;
    }

    /** Whether the comparator's "last on row" rule applies to this cell. */
    boolean isLastOnRowMarker() {
      return family.length == 0 && qualifier.length == 0 && type == CellType.MINIMUM;
    }
  }

  private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', 0x7F, (byte) 0x80, (byte) 0xFF};

  private static final long[] TIMESTAMPS = {
    KeyValue.LATEST_TIMESTAMP, KeyValue.OLDEST_TIMESTAMP, Long.MAX_VALUE - 1, 0, 1, 2, 1_000, -7
  };

  private static final long[] SEQUENCE_IDS = {0, 1, 2, 50, Long.MAX_VALUE};

  private RandomCells() {}

  /** Returns {@code count} random cell contents. */
  static List<Spec> generate(Random random, int count) {
    List<byte[]> rows = pool(random, 8, 5, true);
    List<byte[]> families = pool(random, 5, 3, false);
    List<byte[]> qualifiers = pool(random, 6, 4, false);
    CellType[] types = CellType.values();
    List<Spec> specs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      specs.add(
          new Spec(
              pick(random, rows),
              random.nextInt(4) == 0 ? Bytes.EMPTY : pick(random, families),
              random.nextInt(4) == 0 ? Bytes.EMPTY : pick(random, qualifiers),
              TIMESTAMPS[random.nextInt(TIMESTAMPS.length)],
              types[random.nextInt(types.length)],
              bytes(random, random.nextInt(4)),
              SEQUENCE_IDS[random.nextInt(SEQUENCE_IDS.length)]));
    }
    return specs;
  }

  /**
   * A pool of byte strings: random ones plus extensions of earlier ones, so that prefixes are
   * shared. With {@code withEmpty}, the empty string is one of them.
   */
  private static List<byte[]> pool(Random random, int size, int maxLength, boolean withEmpty) {
    List<byte[]> pool = new ArrayList<>();
    if (withEmpty) {
      pool.add(Bytes.EMPTY);
    }
    while (pool.size() < size) {
      byte[] base = pool.isEmpty() || random.nextBoolean() ? Bytes.EMPTY : pick(random, pool);
      int extra = 1 + random.nextInt(maxLength);
      byte[] next = Arrays.copyOf(base, base.length + extra);
      for (int i = base.length; i < next.length; i++) {
        next[i] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      pool.add(next);
    }
    return pool;
  }

  private static byte[] pick(Random random, List<byte[]> pool) {
    return pool.get(random.nextInt(pool.size()));
  }

  /** Returns {@code length} random bytes drawn from the whole byte range. */
  static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
