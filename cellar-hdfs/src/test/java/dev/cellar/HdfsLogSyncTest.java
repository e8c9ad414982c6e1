package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.MetricsAsserts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a write to a database on HDFS is acknowledged after: a SYNC_WAL put once an {@code hflush}
 * put its entry in the DataNode's memory (another client reads it from the open segment, and the
 * DataNode forced nothing to disk), an FSYNC_WAL put, or every put with {@code hbase.wal.hsync},
 * once an {@code hsync} forced it (the DataNode counts one fsync per put).
 */
class HdfsLogSyncTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static final byte[] FAMILY = bytes("f");

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The fsyncs the DataNode made so far: one per packet an hsync asked it to force. */
  private static long dataNodeFsyncs() {
    return MetricsAsserts.getLongCounter(
        "FsyncCount",
        MetricsAsserts.getMetrics(hdfs.cluster().getDataNodes().getFirst().getMetrics().name()));
  }

  /**
   * Opens a database with table t and puts 20 rows with {@code durability}; the fsyncs they cost.
   */
  private static long fsyncsOfPuts(String location, CellarConfig config, Durability durability)
      throws IOException {
    try (Cellar cellar = Cellar.open(location, config)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      long before = dataNodeFsyncs();
      for (int i = 0; i < 20; i++) {
        cellar
            .table("t")
            .put(
                new Put(bytes("row-" + i))
                    .addColumn(FAMILY, bytes("q"), bytes("value-" + i))
                    .setDurability(durability));
      }
      return dataNodeFsyncs() - before;
    }
  }

  private static boolean contains(byte[] bytes, byte[] part) {
    for (int i = 0; i + part.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aSyncWalPutIsAcknowledgedAfterAnHflushThatOthersCanRead() throws Exception {
    String location = hdfs.newDirectory("hflush");
    try (Cellar cellar = Cellar.open(location, hdfs.config());
        FileSystem reader = FileSystem.newInstance(hdfs.root(), new Configuration())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      long before = dataNodeFsyncs();
      byte[] value = bytes("acknowledged after an hflush");
      cellar
          .table("t")
          .put(
              new Put(bytes("row"))
                  .addColumn(FAMILY, bytes("q"), value)
                  .setDurability(Durability.SYNC_WAL));
      assertEquals(0, dataNodeFsyncs() - before, "an hflush forces nothing to disk");
      Path segment = new Path(hdfs.uri(cellar.wal().segments().getLast().toString()));
      byte[] written;
      try (FSDataInputStream in = reader.open(segment)) {
        written = in.readAllBytes();
      }
      assertTrue(
          contains(written, value), "the entry is in the open segment for another client to read");
    }
  }

  @Test
  void anFsyncWalPutOrAnyPutWithWalHsyncIsAcknowledgedAfterAnHsync() throws Exception {
    assertEquals(
        20,
        fsyncsOfPuts(hdfs.newDirectory("fsync-wal"), hdfs.config(), Durability.FSYNC_WAL),
        "one hsync per FSYNC_WAL put");
    assertEquals(
        20,
        fsyncsOfPuts(
            hdfs.newDirectory("wal-hsync"),
            hdfs.config().with("hbase.wal.hsync", "true"),
            Durability.SYNC_WAL),
        "one hsync per SYNC_WAL put with hbase.wal.hsync");
    assertEquals(
        0,
        fsyncsOfPuts(hdfs.newDirectory("sync-wal"), hdfs.config(), Durability.SYNC_WAL),
        "SYNC_WAL puts hflush only");
  }
}
