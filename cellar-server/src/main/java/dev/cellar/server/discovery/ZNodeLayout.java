package dev.cellar.server.discovery;

import dev.cellar.server.catalog.ServerIdentity;

/**
 * Where HBase's nodes sit under the parent znode ({@code zookeeper.znode.parent}), by HBase's
 * default names: {@code hbaseid}, {@code master}, {@code meta-region-server} (hbase:meta's default
 * replica) and {@code rs/host,port,startcode}.
 */
record ZNodeLayout(String parent) {

  String clusterId() {
    return parent + "/hbaseid";
  }

  String master() {
    return parent + "/master";
  }

  String metaRegionServer() {
    return parent + "/meta-region-server";
  }

  String regionServers() {
    return parent + "/rs";
  }

  /** HBase's server name, {@code host,port,startcode}, under {@link #regionServers()}. */
  String regionServer(ServerIdentity identity) {
    return regionServers()
        + "/"
        + identity.host()
        + ","
        + identity.port()
        + ","
        + identity.startCode();
  }
}
