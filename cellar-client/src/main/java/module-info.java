/**
 * Cellar's Java client: the public API's {@code Table} and {@code Admin} over HBase 2.x's RPC
 * protocol, found by {@code Cellar.connect} as the core's {@code RemoteConnector} service. Exports
 * the client's own entry points ({@code CellarClient}, {@code ClientSettings}, {@code
 * RemoteExport}); its RPC layer stays inside.
 *
 * <p>HBase's generated protocol and its shaded protobuf name no module, so they are required by the
 * names the module system derives from their file names ({@code hbase.protocol.shaded}, {@code
 * hbase.shaded.protobuf}); the two split no package. Netty is modular.
 */
module dev.cellar.client {
  requires transitive dev.cellar.core;
  requires hbase.protocol.shaded;
  requires hbase.shaded.protobuf;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.common;
  requires io.netty.transport;
  requires org.slf4j;

  exports dev.cellar.client;

  provides dev.cellar.spi.RemoteConnector with
      dev.cellar.client.connect.ClientConnector;
}
