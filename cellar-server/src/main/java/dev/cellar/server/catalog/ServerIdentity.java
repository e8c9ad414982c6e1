package dev.cellar.server.catalog;

import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * Who this server is to clients: the host and port it advertises (in the registry answers and in
 * hbase:meta, so they must be reachable from clients), the start code (milliseconds at start,
 * constant for the process) and the cluster id. Immutable.
 */
public record ServerIdentity(String host, int port, long startCode, String clusterId) {

  public HBaseProtos.ServerName toProto() {
    return HBaseProtos.ServerName.newBuilder()
        .setHostName(host)
        .setPort(port)
        .setStartCode(startCode)
        .build();
  }

  /** HBase's {@code host:port}, as hbase:meta's {@code info:server} holds it. */
  public String hostAndPort() {
    return host + ":" + port;
  }
}
