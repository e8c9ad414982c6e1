/**
 * {@code cellar serve}: HBase 2.x's RPC protocol over Netty in front of an embedded database, and
 * its RPC metrics on the info server. Exports only what starts a server ({@code CellarServer},
 * {@code ZooKeeperOptions}, {@code ServerOptions}); the RPC layer, the services and the catalog
 * stay inside.
 *
 * <p>HBase's generated protocol and its shaded protobuf name no module, so they are required by the
 * names the module system derives from their file names ({@code hbase.protocol.shaded}, {@code
 * hbase.shaded.protobuf}); the two split no package, so they sit on a module path together. Netty
 * is modular.
 *
 * <p>ZooKeeper's jar is an automatic module too ({@code zookeeper}); its generated records (jute:
 * {@code org.apache.zookeeper.data}, and classes in two of its server packages) split packages with
 * it, so they stay on the class path and this module reads the unnamed module at compile time
 * ({@code --add-reads}, in the pom). {@code cellar serve} runs on a class path, where none of this
 * matters; an application serving from a module path can use ZooKeeper discovery only with jute on
 * its class path, and not the embedded ZooKeeper server (whose snapshot classes are split).
 */
module dev.cellar.server {
  requires transitive dev.cellar.core;
  requires hbase.protocol.shaded;
  requires hbase.shaded.protobuf;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.common;
  requires io.netty.transport;
  requires io.netty.transport.classes.epoll;
  requires org.slf4j;
  requires zookeeper;

  exports dev.cellar.server;
}
