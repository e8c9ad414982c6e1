package dev.cellar.server.discovery;

import dev.cellar.server.catalog.ServerIdentity;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * The bytes of the znodes HBase 2.x's ZKConnectionRegistry reads, as HBase's own servers write
 * them: a writer's header (the byte {@code 0xFF}, a big-endian int length, then that many bytes
 * naming the writer: {@code pid@host} and eight random bytes), then the four bytes {@code PBUF},
 * then the serialized protobuf message. Readers drop the header when its first byte is {@code 0xFF}
 * and skip {@code PBUF}; what they parse is the message. Stateless.
 */
final class ZNodeContent {

  /** HBase's RPC version; what its servers put in the master and meta znodes. */
  private static final int RPC_VERSION = 0;

  private static final byte HEADER_MAGIC = (byte) 0xFF;
  private static final byte[] PB_MAGIC = "PBUF".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] WRITER =
      ManagementFactory.getRuntimeMXBean().getName().getBytes(StandardCharsets.UTF_8);

  private ZNodeContent() {}

  /** {@code hbaseid}: ClusterId. */
  static byte[] clusterId(String clusterId) {
    return encode(ClusterIdProtos.ClusterId.newBuilder().setClusterId(clusterId).build());
  }

  /** {@code master}: Master, the server itself. */
  static byte[] master(ServerIdentity identity, int infoPort) {
    return encode(
        ZooKeeperProtos.Master.newBuilder()
            .setMaster(identity.toProto())
            .setRpcVersion(RPC_VERSION)
            .setInfoPort(infoPort)
            .build());
  }

  /** {@code meta-region-server}: MetaRegionServer, hbase:meta open on the server. */
  static byte[] metaRegionServer(ServerIdentity identity) {
    return encode(
        ZooKeeperProtos.MetaRegionServer.newBuilder()
            .setServer(identity.toProto())
            .setRpcVersion(RPC_VERSION)
            .setState(RegionState.State.OPEN)
            .build());
  }

  /** A region server's node under {@code rs}: RegionServerInfo. */
  static byte[] regionServer(int infoPort) {
    return encode(HBaseProtos.RegionServerInfo.newBuilder().setInfoPort(infoPort).build());
  }

  private static byte[] encode(Message message) {
    byte[] body = message.toByteArray();
    int writerLength = WRITER.length + Long.BYTES;
    return ByteBuffer.allocate(1 + Integer.BYTES + writerLength + PB_MAGIC.length + body.length)
        .put(HEADER_MAGIC)
        .putInt(writerLength)
        .put(WRITER)
        .putLong(ThreadLocalRandom.current().nextLong())
        .put(PB_MAGIC)
        .put(body)
        .array();
  }
}
