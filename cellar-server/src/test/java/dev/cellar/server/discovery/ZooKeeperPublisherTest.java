package dev.cellar.server.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.server.catalog.ServerIdentity;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ZooKeeperProtos;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The znodes as a reader sees them in an embedded ZooKeeper: each one's bytes (the writer header,
 * {@code PBUF}, the message), which are ephemeral, what a stop leaves and what a restart
 * overwrites; and an unreachable quorum fails start in time, naming it.
 */
class ZooKeeperPublisherTest {

  private static final ServerIdentity FIRST = new ServerIdentity("127.0.0.1", 16020, 1, "cid");
  private static final ServerIdentity SECOND = new ServerIdentity("127.0.0.1", 16020, 2, "cid");

  @TempDir Path dir;

  @Test
  void publishesHBasesNodesAndWithdrawsTheEphemeralOnesOnClose() throws Exception {
    try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start("127.0.0.1", 0, dir)) {
      String quorum = zooKeeper.connectString();
      ZooKeeper reader = connect(quorum);
      try {
        try (ZooKeeperPublisher publisher =
            ZooKeeperPublisher.start(quorum, "/hbase", 30_000, 10_000, FIRST, 16030)) {
          assertEquals(quorum, publisher.connectString());
          assertEquals(
              "cid",
              ClusterIdProtos.ClusterId.parseFrom(message(reader, "/hbase/hbaseid", false))
                  .getClusterId());
          ZooKeeperProtos.Master master =
              ZooKeeperProtos.Master.parseFrom(message(reader, "/hbase/master", true));
          assertEquals(FIRST.toProto(), master.getMaster());
          assertEquals(16030, master.getInfoPort());
          ZooKeeperProtos.MetaRegionServer meta =
              ZooKeeperProtos.MetaRegionServer.parseFrom(
                  message(reader, "/hbase/meta-region-server", false));
          assertEquals(FIRST.toProto(), meta.getServer());
          assertEquals(RegionState.State.OPEN, meta.getState());
          assertEquals(List.of("127.0.0.1,16020,1"), reader.getChildren("/hbase/rs", false));
          assertEquals(
              16030,
              HBaseProtos.RegionServerInfo.parseFrom(
                      message(reader, "/hbase/rs/127.0.0.1,16020,1", true))
                  .getInfoPort());
        }
        assertNull(reader.exists("/hbase/master", false));
        assertEquals(List.of(), reader.getChildren("/hbase/rs", false));
        assertTrue(reader.exists("/hbase/meta-region-server", false) != null);

        try (ZooKeeperPublisher restarted =
            ZooKeeperPublisher.start(quorum, "/hbase", 30_000, 10_000, SECOND, 16030)) {
          assertEquals(
              SECOND.toProto(),
              ZooKeeperProtos.MetaRegionServer.parseFrom(
                      message(reader, "/hbase/meta-region-server", false))
                  .getServer());
          assertEquals(
              SECOND.toProto(),
              ZooKeeperProtos.Master.parseFrom(message(reader, "/hbase/master", true)).getMaster());
          assertEquals(List.of("127.0.0.1,16020,2"), reader.getChildren("/hbase/rs", false));
        }
      } finally {
        reader.close();
      }
    }
  }

  @Test
  void aStaleEphemeralNodeOfAnotherSessionIsReplaced() throws Exception {
    try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start("127.0.0.1", 0, dir);
        ZooKeeperPublisher crashed =
            ZooKeeperPublisher.start(
                zooKeeper.connectString(), "/other", 30_000, 10_000, FIRST, 0);
        ZooKeeperPublisher next =
            ZooKeeperPublisher.start(
                zooKeeper.connectString(), "/other", 30_000, 10_000, SECOND, 0)) {
      ZooKeeper reader = connect(zooKeeper.connectString());
      try {
        assertEquals(
            SECOND.toProto(),
            ZooKeeperProtos.Master.parseFrom(message(reader, "/other/master", true)).getMaster());
      } finally {
        reader.close();
      }
    }
  }

  @Test
  void anUnreachableQuorumFailsInTimeNamingIt() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String quorum = "127.0.0.1:" + port;
    long start = System.nanoTime();
    IOException e =
        assertThrows(
            IOException.class,
            () -> ZooKeeperPublisher.start(quorum, "/hbase", 30_000, 500, FIRST, 0));
    assertTrue(e.getMessage().contains("ZooKeeper unreachable"), e.getMessage());
    assertTrue(e.getMessage().contains(quorum), e.getMessage());
    assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 10);
  }

  /** A node's message: its bytes after the writer header and {@code PBUF}. */
  private static byte[] message(ZooKeeper reader, String path, boolean ephemeral) throws Exception {
    Stat stat = new Stat();
    byte[] data = reader.getData(path, false, stat);
    assertEquals(ephemeral, stat.getEphemeralOwner() != 0, path + " ephemeral");
    ByteBuffer buffer = ByteBuffer.wrap(data);
    assertEquals((byte) 0xFF, buffer.get(), path);
    int writerLength = buffer.getInt();
    assertNotEquals(0, writerLength);
    buffer.position(buffer.position() + writerLength);
    byte[] magic = new byte[4];
    buffer.get(magic);
    assertArrayEquals("PBUF".getBytes(StandardCharsets.US_ASCII), magic, path);
    return Arrays.copyOfRange(data, buffer.position(), data.length);
  }

  private static ZooKeeper connect(String quorum) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper reader =
        new ZooKeeper(
            quorum,
            30_000,
            event -> {
              if (event.getState() == KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    assertTrue(connected.await(10, TimeUnit.SECONDS));
    return reader;
  }
}
