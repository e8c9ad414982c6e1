package dev.cellar.bench;

import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Absolute big-endian reads over one 64 KiB block, as a block decoder does them, from five holders
 * of the same bytes: a pooled single-segment Cellar {@code Buf} (off-heap), a composite Cellar
 * {@code Buf} of four 16 KiB pooled pieces, a direct {@link ByteBuffer}, a heap {@code byte[]} read
 * through a big-endian {@link VarHandle} view, and a raw off-heap {@link MemorySegment} read with
 * Cellar's big-endian layouts (the floor a {@code Buf} adds its checks to).
 *
 * <p>One operation is one pass over the block: {@code getLong} sums the 8192 longs at every 8th
 * offset, {@code getIntUnaligned} the 16383 ints at offsets 1, 5, 9, ... (never 4-aligned), and
 * {@code getByte} all 65536 bytes. The score is nanoseconds per pass.
 *
 * <p>Run from the repository root with JDK 25 as {@code JAVA_HOME}:
 *
 * <pre>{@code
 * mvn -q -DskipTests install
 * mvn -q -pl cellar-bench dependency:build-classpath -DincludeScope=runtime \
 *     -Dmdep.outputFile=/tmp/cp.txt
 * $JAVA_HOME/bin/java -cp cellar-bench/target/classes:$(cat /tmp/cp.txt) org.openjdk.jmh.Main \
 *     BufReadBenchmark -prof gc -rf json -rff /tmp/bufread.json
 * }</pre>
 *
 * <p>or {@code cellar bench jmh BufReadBenchmark -prof gc}. A regex such as {@code
 * 'BufReadBenchmark.getLong'} runs one kind of read.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BufReadBenchmark extends BenchmarkBase {

  private static final VarHandle LONG_BE_ARRAY =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_BE_ARRAY =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** The first offset of the unaligned int reads. */
  private static final int UNALIGNED = 1;

  /** How many whole ints fit from {@link #UNALIGNED} to the end of the block. */
  private static final int UNALIGNED_INTS = (ReadTargets.SIZE - UNALIGNED) / Integer.BYTES;

  @Benchmark
  public long getLongBuf(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i += Long.BYTES) {
      sum += in.buf.getLong(i);
    }
    return sum;
  }

  @Benchmark
  public long getLongCompositeBuf(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i += Long.BYTES) {
      sum += in.compositeBuf.getLong(i);
    }
    return sum;
  }

  @Benchmark
  public long getLongByteBuffer(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i += Long.BYTES) {
      sum += in.byteBuffer.getLong(i);
    }
    return sum;
  }

  @Benchmark
  public long getLongByteArray(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i += Long.BYTES) {
      sum += (long) LONG_BE_ARRAY.get(in.byteArray, i);
    }
    return sum;
  }

  @Benchmark
  public long getLongSegment(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i += Long.BYTES) {
      sum += in.segment.get(ByteLayouts.LONG_BE, i);
    }
    return sum;
  }

  @Benchmark
  public long getIntUnalignedBuf(ReadTargets in) {
    long sum = 0;
    for (int k = 0; k < UNALIGNED_INTS; k++) {
      sum += in.buf.getInt(UNALIGNED + k * Integer.BYTES);
    }
    return sum;
  }

  @Benchmark
  public long getIntUnalignedCompositeBuf(ReadTargets in) {
    long sum = 0;
    for (int k = 0; k < UNALIGNED_INTS; k++) {
      sum += in.compositeBuf.getInt(UNALIGNED + k * Integer.BYTES);
    }
    return sum;
  }

  @Benchmark
  public long getIntUnalignedByteBuffer(ReadTargets in) {
    long sum = 0;
    for (int k = 0; k < UNALIGNED_INTS; k++) {
      sum += in.byteBuffer.getInt(UNALIGNED + k * Integer.BYTES);
    }
    return sum;
  }

  @Benchmark
  public long getIntUnalignedByteArray(ReadTargets in) {
    long sum = 0;
    for (int k = 0; k < UNALIGNED_INTS; k++) {
      sum += (int) INT_BE_ARRAY.get(in.byteArray, UNALIGNED + k * Integer.BYTES);
    }
    return sum;
  }

  @Benchmark
  public long getIntUnalignedSegment(ReadTargets in) {
    long sum = 0;
    for (int k = 0; k < UNALIGNED_INTS; k++) {
      sum += in.segment.get(ByteLayouts.INT_BE, UNALIGNED + k * Integer.BYTES);
    }
    return sum;
  }

  @Benchmark
  public long getByteBuf(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i++) {
      sum += in.buf.getByte(i);
    }
    return sum;
  }

  @Benchmark
  public long getByteCompositeBuf(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i++) {
      sum += in.compositeBuf.getByte(i);
    }
    return sum;
  }

  @Benchmark
  public long getByteByteBuffer(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i++) {
      sum += in.byteBuffer.get(i);
    }
    return sum;
  }

  @Benchmark
  public long getByteByteArray(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i++) {
      sum += in.byteArray[i];
    }
    return sum;
  }

  @Benchmark
  public long getByteSegment(ReadTargets in) {
    long sum = 0;
    for (int i = 0; i < ReadTargets.SIZE; i++) {
      sum += in.segment.get(ByteLayouts.BYTE, i);
    }
    return sum;
  }
}
