package dev.cellar.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.TableDescriptor;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A database on a MiniDFSCluster through {@code Cellar.open(hdfs://...)}. */
class HdfsCellarTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void rowsWrittenOnHdfsAreReadAfterReopening() throws Exception {
    String location = hdfs.newDirectory("reopen");
    try (Cellar cellar = Cellar.open(location, hdfs.config())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < 100; i++) {
        cellar
            .table("t")
            .put(new Put(bytes("row-" + i)).addColumn(bytes("f"), bytes("q"), bytes("value-" + i)));
      }
      cellar.admin().flush("t");
      cellar
          .table("t")
          .put(new Put(bytes("row-x")).addColumn(bytes("f"), bytes("q"), bytes("in the log")));
    }
    try (Cellar cellar = Cellar.open(location, hdfs.config())) {
      for (int i = 0; i < 100; i++) {
        try (Result result = cellar.table("t").get(new Get(bytes("row-" + i)))) {
          assertArrayEquals(bytes("value-" + i), result.getValue(bytes("f"), bytes("q")));
        }
      }
      try (Result result = cellar.table("t").get(new Get(bytes("row-x")))) {
        assertEquals(
            "in the log",
            new String(result.getValue(bytes("f"), bytes("q")), StandardCharsets.UTF_8));
      }
    }
  }
}
