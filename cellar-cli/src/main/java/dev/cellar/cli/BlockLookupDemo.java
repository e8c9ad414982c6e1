package dev.cellar.cli;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The demo's data: rows shaped like HBase PerformanceEvaluation's (26-digit zero-padded keys, one
 * column {@code info:0}, fixed-size values) packed in key order into 64 KiB blocks of pooled
 * off-heap memory in the KeyValue layout, with an index of each block's first key. A lookup
 * binary-searches the index and scans one block with a flyweight cell, reading everything in
 * place.
 *
 * <p>Thread-safe for lookups once built: blocks are never written after loading, and each lookup
 * uses its own flyweight. {@link #close()} releases every block.
 */
final class BlockLookupDemo implements AutoCloseable {

  static final byte[] FAMILY = "info".getBytes(StandardCharsets.US_ASCII);
  static final byte[] QUALIFIER = "0".getBytes(StandardCharsets.US_ASCII);
  private static final int BLOCK_SIZE = 64 * 1024;

  private final List<Buf> blocks = new ArrayList<>();
  private final List<Integer> blockLengths = new ArrayList<>();
  private final List<KeyValue> firstKeys = new ArrayList<>();
  private final int rows;

  private BlockLookupDemo(int rows) {
    this.rows = rows;
  }

  /** PE's row key for row {@code i}: its decimal value zero-padded to 26 digits. */
  static byte[] rowKey(long i) {
    return String.format("%026d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** Loads {@code rows} rows with values of {@code valueSize} random bytes. */
  static BlockLookupDemo load(BufAllocator allocator, int rows, int valueSize, long seed) {
    BlockLookupDemo demo = new BlockLookupDemo(rows);
    Random random = new Random(seed);
    byte[] value = new byte[valueSize];
    Buf block = null;
    int used = 0;
    try {
      for (int i = 0; i < rows; i++) {
        random.nextBytes(value);
        KeyValue cell = KeyValue.create(rowKey(i), FAMILY, QUALIFIER, 1L, CellType.PUT, value);
        if (block == null || used + cell.length() > block.capacity()) {
          if (block != null) {
            demo.add(block, used);
          }
          block = allocator.allocate(Math.max(BLOCK_SIZE, cell.length()));
          used = 0;
          demo.firstKeys.add(cell);
        }
        block.putBytes(used, cell.segment(), cell.offset(), cell.length());
        used += cell.length();
      }
      if (block != null) {
        demo.add(block, used);
        block = null;
      }
      return demo;
    } catch (RuntimeException e) {
      if (block != null) {
        block.release();
      }
      demo.close();
      throw e;
    }
  }

  private void add(Buf block, int used) {
    blocks.add(block);
    blockLengths.add(used);
  }

  int rows() {
    return rows;
  }

  int blockCount() {
    return blocks.size();
  }

  /**
   * Finds {@code row}'s cell and returns its value length, or -1 if the row is absent. {@code
   * cursor} is the caller's reusable flyweight; on success it points at the cell.
   */
  int lookup(Cell key, KeyValueCell cursor) {
    int low = 0;
    int high = firstKeys.size() - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (CellComparator.compareRows(firstKeys.get(mid), key) <= 0) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    if (firstKeys.isEmpty()) {
      return -1;
    }
    Buf block = blocks.get(low);
    int end = blockLengths.get(low);
    int at = 0;
    while (at < end) {
      int length = cellLength(block, at);
      cursor.reset(block.segment(), at, length, false, 0);
      int diff = CellComparator.compareRows(cursor, key);
      if (diff == 0) {
        return cursor.valueLength();
      }
      if (diff > 0) {
        return -1;
      }
      at += length;
    }
    return -1;
  }

  private static int cellLength(Buf block, int at) {
    return 2 * Integer.BYTES + block.getInt(at) + block.getInt(at + Integer.BYTES);
  }

  @Override
  public void close() {
    for (Buf block : blocks) {
      block.release();
    }
    blocks.clear();
  }
}
