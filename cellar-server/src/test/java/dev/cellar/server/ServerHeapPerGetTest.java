package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.server.catalog.Catalog;
import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heap bytes the server's threads allocate per get of a cached row of a 1000-byte value, answered
 * with a KeyValueCodec cell block: parsing the request, reading the row, copying its cells into the
 * pooled response buffer (or, from off-heap blocks, referencing them) and writing the frame.
 * Measured with {@code ThreadMXBean.getThreadAllocatedBytes} over the server's RPC threads only
 * (the test's client runs on its own thread), with Netty's leak tracking (which records a stack per
 * buffer) off while it is measured.
 */
class ServerHeapPerGetTest {

  private static final int ROWS = 1_000;
  private static final int GETS = 20_000;

  /**
   * What a get may cost: the call's objects and the row key (measured 504 bytes; the request is
   * read from its bytes, its messages are not built), no per-cell garbage.
   */
  private static final long BUDGET = 1_024;

  /**
   * From the off-heap bucket cache, the value sent from its block: the call's objects, what a
   * bucket cache hit costs, the objects that reference the block's memory (the pins, the composite
   * frame, a wrapper per part), and in this JVM the stack Cellar's PARANOID leak detection records
   * at each retain and release of a block (measured 8.6 KB sent from the block, against 0.5 KB from
   * the on-heap cache).
   */
  private static final long PINNED_BUDGET = 16_384;

  @TempDir Path dir;

  @Test
  void aGetFromTheHeapCacheAllocatesOnlyItsMessages() throws Exception {
    long perGet = heapPerGet(CellarConfig.defaults());
    System.out.println(
        "ServerHeapPerGetTest: "
            + perGet
            + " heap bytes per get on the server"
            + " (on-heap block cache: values copied into the response)");
    assertTrue(perGet < BUDGET, perGet + " heap bytes per get, budget " + BUDGET);
  }

  @Test
  void aGetSentFromOffHeapBlocksAllocatesOnlyItsMessagesAndBufferObjects() throws Exception {
    long perGet =
        heapPerGet(
            CellarConfig.defaults()
                .with("hbase.bucketcache.ioengine", "offheap")
                .with("hbase.bucketcache.size", "64"));
    System.out.println(
        "ServerHeapPerGetTest: "
            + perGet
            + " heap bytes per get on the server"
            + " (off-heap bucket cache: values sent from the blocks)");
    assertTrue(perGet < PINNED_BUDGET, perGet + " heap bytes per get, budget " + PINNED_BUDGET);
  }

  private long heapPerGet(CellarConfig base) throws IOException {
    try (Cellar cellar = Cellar.open(dir, base)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < ROWS; i++) {
        cellar
            .table("t")
            .put(new Put(row(i)).addColumn(new byte[] {'f'}, new byte[] {'q'}, new byte[1000]));
      }
      cellar.admin().flush("t");
    }
    CellarConfig config = base.with(ServerOptions.PORT, "0").with(ServerOptions.IO_THREADS, "1");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config);
        RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
      Catalog.Entry table = server.catalog().byName("t");
      ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
      try {
        get(client, table, GETS);
        long before = serverAllocatedBytes();
        get(client, table, GETS);
        return (serverAllocatedBytes() - before) / GETS;
      } finally {
        ResourceLeakDetector.setLevel(level);
      }
    }
  }

  private static byte[] row(int i) {
    return String.format("row-%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static void get(RawRpcClient client, Catalog.Entry table, int count) throws IOException {
    HBaseProtos.RegionSpecifier region =
        HBaseProtos.RegionSpecifier.newBuilder()
            .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.copyFrom(table.regionName()))
            .build();
    for (int i = 0; i < count; i++) {
      client.call(
          "Get",
          ClientProtos.GetRequest.newBuilder()
              .setRegion(region)
              .setGet(
                  ClientProtos.Get.newBuilder()
                      .setRow(ByteString.copyFrom(row(i % ROWS)))
                      .addColumn(
                          ClientProtos.Column.newBuilder().setFamily(ByteString.copyFromUtf8("f"))))
              .build(),
          null);
      RawRpcClient.Response response = client.read();
      assertEquals(
          1,
          ClientProtos.GetResponse.parseFrom(response.body()).getResult().getAssociatedCellCount());
    }
  }

  private static long serverAllocatedBytes() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long total = 0;
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith("cellar-rpc-")) {
        total += threads.getThreadAllocatedBytes(thread.threadId());
      }
    }
    return total;
  }
}
