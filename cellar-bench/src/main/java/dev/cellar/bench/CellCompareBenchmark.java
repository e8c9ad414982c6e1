package dev.cellar.bench;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ByteBufferKeyValue;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Cell comparison throughput: Cellar's {@link CellComparator} against HBase's {@code
 * CellComparatorImpl} on the same cells, on the heap and off it. Cells are PerformanceEvaluation
 * shaped (26-digit rows, family {@code info}, qualifier {@code 0}); pairs are neighbours in sort
 * order, so most comparisons walk a long shared row prefix, as merges and seeks do ({@code
 * shape=neighbours}), or random pairs that differ early ({@code shape=random}). One operation
 * compares {@value #PAIRS} pairs.
 *
 * <p>Run: {@code ./cellar bench jmh CellCompareBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CellCompareBenchmark extends BenchmarkBase {

  static final int PAIRS = 1024;

  @Param({"neighbours", "random"})
  public String shape;

  private final Cell[] cellarHeapLeft = new Cell[PAIRS];
  private final Cell[] cellarHeapRight = new Cell[PAIRS];
  private final Cell[] cellarOffHeapLeft = new Cell[PAIRS];
  private final Cell[] cellarOffHeapRight = new Cell[PAIRS];
  private final org.apache.hadoop.hbase.Cell[] hbaseHeapLeft =
      new org.apache.hadoop.hbase.Cell[PAIRS];
  private final org.apache.hadoop.hbase.Cell[] hbaseHeapRight =
      new org.apache.hadoop.hbase.Cell[PAIRS];
  private final org.apache.hadoop.hbase.Cell[] hbaseOffHeapLeft =
      new org.apache.hadoop.hbase.Cell[PAIRS];
  private final org.apache.hadoop.hbase.Cell[] hbaseOffHeapRight =
      new org.apache.hadoop.hbase.Cell[PAIRS];
  private Arena arena;

  @Setup(Level.Trial)
  public void setUp() {
    arena = Arena.ofShared();
    Random random = new Random(42);
    for (int i = 0; i < PAIRS; i++) {
      long left = random.nextInt(1_000_000);
      long right = shape.equals("neighbours") ? left + 1 : random.nextInt(1_000_000);
      fill(i, left, right);
    }
  }

  private void fill(int i, long leftRow, long rightRow) {
    KeyValue left = cell(leftRow);
    KeyValue right = cell(rightRow);
    cellarHeapLeft[i] = left;
    cellarHeapRight[i] = right;
    cellarOffHeapLeft[i] = offHeap(left);
    cellarOffHeapRight[i] = offHeap(right);
    hbaseHeapLeft[i] = hbase(left);
    hbaseHeapRight[i] = hbase(right);
    hbaseOffHeapLeft[i] = hbaseOffHeap(left);
    hbaseOffHeapRight[i] = hbaseOffHeap(right);
  }

  private static KeyValue cell(long row) {
    byte[] key = String.format("%026d", row).getBytes(StandardCharsets.US_ASCII);
    return KeyValue.create(
        key,
        "info".getBytes(StandardCharsets.US_ASCII),
        "0".getBytes(StandardCharsets.US_ASCII),
        1_700_000_000_000L,
        CellType.PUT,
        new byte[16]);
  }

  private static byte[] bytes(KeyValue cell) {
    return cell.segment()
        .asSlice(cell.offset(), cell.length())
        .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
  }

  private Cell offHeap(KeyValue cell) {
    byte[] serialized = bytes(cell);
    MemorySegment segment = arena.allocate(serialized.length);
    segment.copyFrom(MemorySegment.ofArray(serialized));
    return new KeyValueCell(segment, 0, serialized.length, false, 0);
  }

  private static org.apache.hadoop.hbase.Cell hbase(KeyValue cell) {
    byte[] serialized = bytes(cell);
    return new org.apache.hadoop.hbase.KeyValue(serialized, 0, serialized.length);
  }

  private static org.apache.hadoop.hbase.Cell hbaseOffHeap(KeyValue cell) {
    byte[] serialized = bytes(cell);
    ByteBuffer direct = ByteBuffer.allocateDirect(serialized.length);
    direct.put(serialized).flip();
    return new ByteBufferKeyValue(direct, 0, serialized.length);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    arena.close();
  }

  @Benchmark
  public void cellarHeap(Blackhole blackhole) {
    for (int i = 0; i < PAIRS; i++) {
      blackhole.consume(CellComparator.INSTANCE.compare(cellarHeapLeft[i], cellarHeapRight[i]));
    }
  }

  @Benchmark
  public void cellarOffHeap(Blackhole blackhole) {
    for (int i = 0; i < PAIRS; i++) {
      blackhole.consume(
          CellComparator.INSTANCE.compare(cellarOffHeapLeft[i], cellarOffHeapRight[i]));
    }
  }

  @Benchmark
  public void hbaseHeap(Blackhole blackhole) {
    for (int i = 0; i < PAIRS; i++) {
      blackhole.consume(CellComparatorImpl.COMPARATOR.compare(hbaseHeapLeft[i], hbaseHeapRight[i]));
    }
  }

  @Benchmark
  public void hbaseOffHeap(Blackhole blackhole) {
    for (int i = 0; i < PAIRS; i++) {
      blackhole.consume(
          CellComparatorImpl.COMPARATOR.compare(hbaseOffHeapLeft[i], hbaseOffHeapRight[i]));
    }
  }
}
