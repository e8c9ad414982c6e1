package dev.cellar.bench;

import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;

/**
 * Apache HBase's HFile reader set up as a region server with its block cache turned off runs it:
 * store files on the local file system reached through an {@link HFileSystem} that verifies HBase's
 * block checksums, no block cache, and blocks read into HBase's pooled off-heap {@link
 * ByteBuffAllocator}, sized as Cellar's pool ({@code CacheConfig.DISABLED} would read every block
 * into a fresh heap buffer instead, which no region server does). On the local file system, whose
 * streams cannot read into a {@code ByteBuffer}, HBase reads each block through a temporary heap
 * array and copies it into the pooled buffer ({@code BlockIOUtils}); on HDFS it reads directly.
 *
 * <p>The codecs are HBase's {@code hbase-compression-snappy}, {@code -lz4} and {@code -zstd}, named
 * in {@code hbase-codecs.xml}, which is added to every Hadoop configuration before HBase builds its
 * first codec; GZ is HBase's default {@code ReusableStreamGzipCodec}.
 */
final class HBaseReaders {

  private HBaseReaders() {}

  /** The configuration every reader is opened with. */
  static Configuration conf() {
    return Conf.INSTANCE;
  }

  /**
   * HBase's allocator with the pool settings of {@link BufAllocatorConfig#DEFAULT}. Its public
   * factory needs a Hadoop {@code Configuration}; the protected constructor, reached through an
   * anonymous subclass, does not. That constructor takes the buffer count before the buffer size.
   */
  static ByteBuffAllocator pooledAllocator() {
    BufAllocatorConfig config = BufAllocatorConfig.DEFAULT;
    return new ByteBuffAllocator(
        config.poolEnabled(),
        config.maxBufferCount(),
        config.bufferSize(),
        config.minimalAllocateSize()) {};
  }

  /** Opens {@code file}, reading blocks into {@code allocator}'s buffers and caching none. */
  static HFile.Reader open(Path file, ByteBuffAllocator allocator) throws IOException {
    Configuration conf = conf();
    CacheConfig noBlockCache = new CacheConfig(conf, null, null, allocator);
    return HFile.createReader(
        new HFileSystem(conf, true),
        new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()),
        noBlockCache,
        true,
        conf);
  }

  /**
   * Created on first use, so that a benchmark using only {@link #pooledAllocator()} never loads
   * Hadoop's configuration.
   */
  private static final class Conf {
    private static final String CODECS = "dev/cellar/bench/hbase-codecs.xml";

    static {
      Configuration.addDefaultResource(CODECS);
    }

    static final Configuration INSTANCE = HBaseConfiguration.create();
  }
}
