package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A log pipeline that fails (its only DataNode stops) fails every write waiting on it: concurrent
 * SYNC_WAL puts all throw, none is acknowledged, and later ones are refused; once the DataNode is
 * back and the dead writer's leases recovered, every row acknowledged before the failure is there.
 */
class HdfsPipelineFailureTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Put put(int row) {
    return new Put(bytes("row-" + row))
        .addColumn(FAMILY, QUALIFIER, bytes("value-" + row))
        .setDurability(Durability.SYNC_WAL);
  }

  /** Recovers the lease of every file under {@code location} a writer still holds. */
  private static void recoverLeases(String location) throws Exception {
    DistributedFileSystem fs = hdfs.cluster().getFileSystem();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path(URI.create(location)), true);
    while (files.hasNext()) {
      Path file = files.next().getPath();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!fs.recoverLease(file)) {
        assertTrue(System.nanoTime() < deadline, file + ": lease not recovered");
        Thread.sleep(100);
      }
    }
  }

  @Test
  void aFailedPipelineFailsEveryWaitingWriteAndAcknowledgesNone() throws Exception {
    String location = hdfs.newDirectory("pipeline");
    Cellar cellar = Cellar.open(location, hdfs.config());
    cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    for (int i = 0; i < 50; i++) {
      cellar.table("t").put(put(i));
    }
    MiniDFSCluster.DataNodeProperties dataNode = hdfs.cluster().stopDataNode(0);
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> waiting = new ArrayList<>();
      for (int i = 50; i < 58; i++) {
        int row = i;
        waiting.add(
            writers.submit(
                () -> {
                  cellar.table("t").put(put(row));
                  return null;
                }));
      }
      for (Future<?> write : waiting) {
        Exception failed =
            assertThrows(
                Exception.class,
                () -> write.get(120, TimeUnit.SECONDS),
                "no write is acknowledged through a failed pipeline");
        assertTrue(failed.getCause() instanceof IOException, failed.toString());
      }
      assertThrows(
          IOException.class,
          () -> cellar.table("t").put(put(100)),
          "the failed log refuses later writes");
    } finally {
      writers.shutdownNow();
      cellar.abort();
    }

    assertTrue(hdfs.cluster().restartDataNode(dataNode, true));
    hdfs.cluster().waitActive();
    recoverLeases(location);
    try (Cellar reopened = Cellar.open(location, hdfs.config())) {
      for (int i = 0; i < 50; i++) {
        try (Result result = reopened.table("t").get(new Get(bytes("row-" + i)))) {
          assertArrayEquals(
              bytes("value-" + i), result.getValue(FAMILY, QUALIFIER), "acknowledged row " + i);
        }
      }
    }
  }
}
