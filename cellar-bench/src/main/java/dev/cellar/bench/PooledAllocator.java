package dev.cellar.bench;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One pooled allocator under test, behind a common operation: allocate a buffer, write its first
 * and last byte, hand it to the blackhole, release it. Each benchmark fork creates one
 * implementation, so the call site stays monomorphic.
 */
sealed interface PooledAllocator extends AutoCloseable {

  /** The values of the {@code allocator} parameter. */
  String CELLAR = "cellar";

  String NETTY_POOLED = "netty-pooled";
  String NETTY_ADAPTIVE = "netty-adaptive";
  String HBASE = "hbase";

  /** Allocates {@code size} bytes, touches them, and releases them. */
  void allocateAndRelease(int size, Blackhole blackhole);

  /** Frees the pool's memory; every buffer has been released. */
  @Override
  default void close() {}

  /** The allocator named by an {@code allocator} parameter value. */
  static PooledAllocator named(String name) {
    return switch (name) {
      case CELLAR -> new Cellar(new BufAllocator(BufAllocatorConfig.DEFAULT));
      case NETTY_POOLED -> new Netty(new PooledByteBufAllocator(true));
      case NETTY_ADAPTIVE -> new Netty(new AdaptiveByteBufAllocator(true));
      case HBASE -> new HBase(HBaseReaders.pooledAllocator());
      default -> throw new IllegalArgumentException("unknown allocator: " + name);
    };
  }

  /** Cellar's {@link BufAllocator}. */
  record Cellar(BufAllocator allocator) implements PooledAllocator {
    @Override
    public void allocateAndRelease(int size, Blackhole blackhole) {
      Buf buf = allocator.allocate(size);
      buf.putByte(0, (byte) 1);
      buf.putByte(size - 1, (byte) 2);
      blackhole.consume(buf);
      buf.release();
    }

    @Override
    public void close() {
      allocator.close();
    }
  }

  /**
   * A Netty allocator asked for direct buffers, with Netty's default settings. JMH's threads, like
   * HBase's and Cellar's request handlers, are not Netty event-loop threads, so Netty 4.2 gives
   * them no thread-local cache unless {@code -Dio.netty.allocator.useCacheForAllThreads=true}
   * (pooled) or {@code -Dio.netty.allocator.useCachedMagazinesForNonEventLoopThreads=true}
   * (adaptive) is set.
   */
  record Netty(ByteBufAllocator allocator) implements PooledAllocator {
    @Override
    public void allocateAndRelease(int size, Blackhole blackhole) {
      ByteBuf buf = allocator.directBuffer(size);
      buf.setByte(0, 1);
      buf.setByte(size - 1, 2);
      blackhole.consume(buf);
      buf.release();
    }
  }

  /** HBase's {@link ByteBuffAllocator}, whose semantics Cellar's allocator follows. */
  record HBase(ByteBuffAllocator allocator) implements PooledAllocator {
    @Override
    public void allocateAndRelease(int size, Blackhole blackhole) {
      ByteBuff buf = allocator.allocate(size);
      buf.put(0, (byte) 1);
      buf.put(size - 1, (byte) 2);
      blackhole.consume(buf);
      buf.release();
    }

    @Override
    public void close() {
      allocator.clean();
    }
  }
}
