package dev.cellar.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Allocate-and-release throughput of Cellar's pooled {@code BufAllocator} against Netty's pooled
 * and adaptive allocators (direct buffers) and HBase's {@code ByteBuffAllocator}, all in the same
 * run, from one thread and from two threads sharing one allocator.
 *
 * <p>Cellar and HBase use the same pool (66560-byte buffers, 1860 of them, minimal allocation 11093
 * bytes). The sizes are a data block as read from disk (a 64 KiB block with its headers: 65600
 * bytes, one pooled buffer), a mid size (16 KiB, one pooled buffer partly used) and a small size
 * below the minimal allocation (1 KiB, which Cellar and HBase serve from the heap by design while
 * Netty pools it). The score is operations per microsecond summed over the threads; {@code
 * gc.alloc.rate.norm} is the heap bytes per allocation.
 *
 * <p>Run from the repository root with JDK 25 as {@code JAVA_HOME}:
 *
 * <pre>{@code
 * mvn -q -DskipTests install
 * mvn -q -pl cellar-bench dependency:build-classpath -DincludeScope=runtime \
 *     -Dmdep.outputFile=/tmp/cp.txt
 * $JAVA_HOME/bin/java -cp cellar-bench/target/classes:$(cat /tmp/cp.txt) org.openjdk.jmh.Main \
 *     AllocatorBenchmark -prof gc -rf json -rff /tmp/allocator.json
 * }</pre>
 *
 * <p>or {@code cellar bench jmh AllocatorBenchmark -prof gc}. Add {@code -p allocator=cellar,hbase}
 * or {@code -p size=65600} to run a subset.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AllocatorBenchmark extends BenchmarkBase {

  @Param({
    PooledAllocator.CELLAR,
    PooledAllocator.NETTY_POOLED,
    PooledAllocator.NETTY_ADAPTIVE,
    PooledAllocator.HBASE
  })
  public String allocator;

  @Param({"1024", "16384", "65600"})
  public int size;

  private PooledAllocator pool;

  @Setup
  public void setUp() {
    pool = PooledAllocator.named(allocator);
  }

  @TearDown
  public void tearDown() {
    pool.close();
  }

  @Benchmark
  @Threads(1)
  public void allocateRelease(Blackhole blackhole) {
    pool.allocateAndRelease(size, blackhole);
  }

  @Benchmark
  @Threads(2)
  public void allocateReleaseTwoThreads(Blackhole blackhole) {
    pool.allocateAndRelease(size, blackhole);
  }
}
