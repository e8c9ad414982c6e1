package dev.cellar.bench;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The same {@value #SIZE} pseudo-random bytes in every holder {@link BufReadBenchmark} reads: the
 * two Cellar buffers come from pools and are checked to have the shape they claim, the other three
 * are plain JDK memory.
 */
@State(Scope.Benchmark)
public class ReadTargets {

  /** One 64 KiB block. */
  static final int SIZE = 64 * 1024;

  /** Pool buffers a quarter of the block, so the block is four pooled pieces. */
  private static final int PIECE_SIZE = SIZE / 4;

  private static final long SEED = 20_250_101L;

  private BufAllocator pool;
  private BufAllocator piecePool;
  private Arena arena;

  Buf buf;
  Buf compositeBuf;
  ByteBuffer byteBuffer;
  byte[] byteArray;
  MemorySegment segment;

  @Setup
  public void setUp() {
    byteArray = new byte[SIZE];
    new Random(SEED).nextBytes(byteArray);

    pool = new BufAllocator(BufAllocatorConfig.DEFAULT);
    buf = pool.allocate(SIZE);
    buf.putBytes(0, byteArray, 0, SIZE);
    requireShape(buf, true, "pooled Buf");

    piecePool = new BufAllocator(new BufAllocatorConfig(true, PIECE_SIZE, 4, PIECE_SIZE / 6));
    compositeBuf = piecePool.allocate(SIZE);
    compositeBuf.putBytes(0, byteArray, 0, SIZE);
    requireShape(compositeBuf, false, "composite Buf");

    byteBuffer = ByteBuffer.allocateDirect(SIZE).order(ByteOrder.BIG_ENDIAN);
    byteBuffer.put(0, byteArray);

    arena = Arena.ofShared();
    segment = arena.allocate(SIZE, Long.BYTES);
    segment.copyFrom(MemorySegment.ofArray(byteArray));
  }

  private static void requireShape(Buf buffer, boolean singleSegment, String what) {
    if (buffer.isSingleSegment() != singleSegment || !buffer.isDirect()) {
      throw new IllegalStateException(
          "the " + what + " is not what the benchmark measures: " + buffer);
    }
  }

  @TearDown
  public void tearDown() {
    buf.release();
    compositeBuf.release();
    pool.close();
    piecePool.close();
    arena.close();
  }
}
