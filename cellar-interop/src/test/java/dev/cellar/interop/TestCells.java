package dev.cellar.interop;

import dev.cellar.cell.CellType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;

/**
 * Random store-file contents: one family, several cells per row, every cell type, compressible
 * values, optional tags, distinct sequence ids; sorted by HBase's own comparator.
 */
final class TestCells {

  static final byte[] FAMILY = bytes("f");

  private static final CellType[] DELETES = {
    CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY, CellType.DELETE_FAMILY_VERSION
  };

  private TestCells() {}

  /** The row key of row number {@code i}. */
  static byte[] row(int i) {
    return bytes("row-%06d".formatted(i));
  }

  /**
   * Returns {@code count} distinct cells over {@code rows} rows, in HBase's order. About one cell
   * in three has tags; sequence ids are distinct and positive.
   */
  static List<CellSpec> sorted(Random random, int count, int rows) {
    TreeMap<KeyValue, CellSpec> byKey =
        new TreeMap<>((a, b) -> CellComparator.getInstance().compare(a, b, true));
    long sequenceId = 1;
    while (byKey.size() < count) {
      CellSpec cell = cell(random, rows, sequenceId++);
      byKey.putIfAbsent(cell.toHBase(), cell);
    }
    return new ArrayList<>(byKey.values());
  }

  /**
   * Returns {@code count} puts on consecutive rows, one column each, every value {@code
   * valueLength} bytes, without tags: a file whose first data block is easy to corrupt in a value.
   */
  static List<CellSpec> puts(int count, int valueLength) {
    List<CellSpec> cells = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] value = new byte[valueLength];
      Arrays.fill(value, (byte) ('a' + i % 26));
      cells.add(
          new CellSpec(
              row(i),
              FAMILY,
              bytes("q"),
              1_700_000_000_000L,
              CellType.PUT.code(),
              value,
              new byte[0],
              i + 1));
    }
    return cells;
  }

  private static CellSpec cell(Random random, int rows, long sequenceId) {
    byte[] row = row(random.nextInt(rows));
    long timestamp = 1_700_000_000_000L + random.nextInt(1_000);
    if (random.nextInt(10) != 0) {
      return new CellSpec(
          row,
          FAMILY,
          bytes("q" + random.nextInt(12)),
          timestamp,
          CellType.PUT.code(),
          value(random),
          tags(random),
          sequenceId);
    }
    CellType type = DELETES[random.nextInt(DELETES.length)];
    boolean wholeFamily = type == CellType.DELETE_FAMILY || type == CellType.DELETE_FAMILY_VERSION;
    byte[] qualifier = wholeFamily ? new byte[0] : bytes("q" + random.nextInt(12));
    return new CellSpec(
        row, FAMILY, qualifier, timestamp, type.code(), new byte[0], tags(random), sequenceId);
  }

  private static byte[] value(Random random) {
    byte[] value = new byte[random.nextInt(200)];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (random.nextInt(8) == 0 ? random.nextInt() : 'a' + i % 7);
    }
    return value;
  }

  private static byte[] tags(Random random) {
    if (random.nextInt(3) != 0) {
      return new byte[0];
    }
    int count = 1 + random.nextInt(2);
    byte[][] values = new byte[count][];
    int length = 0;
    for (int i = 0; i < count; i++) {
      values[i] = new byte[random.nextInt(20)];
      random.nextBytes(values[i]);
      length += 3 + values[i].length;
    }
    ByteBuffer tags = ByteBuffer.allocate(length);
    for (byte[] tagValue : values) {
      byte type = (byte) (1 + random.nextInt(30));
      tags.putShort((short) (1 + tagValue.length)).put(type).put(tagValue);
    }
    return tags.array();
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
