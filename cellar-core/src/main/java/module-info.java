/**
 * Cellar's storage engine and its embedded API.
 *
 * <p>Exported to everyone: the public API ({@code dev.cellar}), HBase's filters ({@code
 * dev.cellar.filter}), the settings a schema and a mutation choose from ({@code dev.cellar.schema}:
 * compression, encoding, bloom type, durability, the same constants the engine works with) and the
 * cell model both speak ({@code dev.cellar.cell}: {@code Cell}, {@code KeyValue}, {@code Bytes},
 * HBase's cell order and layout, all of it byte-compatible with HBase and depending on nothing but
 * {@code java.base}). Every other package is the engine's own; the ones Cellar's other modules
 * build on are exported to those modules only.
 *
 * <p>Snappy's jar names no module, so it is required by the name the module system derives from its
 * file name ({@code snappy.java}); the others name theirs.
 */
module dev.cellar.core {
  requires java.management;
  requires java.xml;
  requires jdk.httpserver;
  requires jdk.management;
  requires com.github.luben.zstd_jni;
  requires com.google.protobuf;
  requires org.lz4.java;
  requires org.slf4j;
  requires snappy.java;

  exports dev.cellar;
  exports dev.cellar.cell;
  exports dev.cellar.filter;
  exports dev.cellar.schema;
  exports dev.cellar.config to
      dev.cellar.server,
      dev.cellar.client,
      dev.cellar.hdfs;
  exports dev.cellar.io to
      dev.cellar.server,
      dev.cellar.hdfs;
  exports dev.cellar.memory to
      dev.cellar.client,
      dev.cellar.hdfs;
  exports dev.cellar.metrics to
      dev.cellar.server;
  exports dev.cellar.observe to
      dev.cellar.server;
  exports dev.cellar.row to
      dev.cellar.server,
      dev.cellar.client;
  exports dev.cellar.spi to
      dev.cellar.server,
      dev.cellar.client;

  uses dev.cellar.spi.RemoteConnector;
  uses dev.cellar.cache.CacheableDeserializer;
  uses dev.cellar.io.StorageProvider;

  provides dev.cellar.cache.CacheableDeserializer with
      dev.cellar.hfile.HFileBlockDeserializer,
      dev.cellar.hfile.PackedBlockDeserializer;
}
