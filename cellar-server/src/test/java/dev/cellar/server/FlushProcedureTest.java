package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.metrics.RegionStats;
import dev.cellar.spi.EngineAccess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's flush as HBase's clients ask for it: {@code FlushTable} (HBase 2.6's Admin) and the
 * {@code flush-table-proc} procedure by signature with {@code IsProcedureDone} (older clients'
 * fallback); another procedure is refused by name.
 */
class FlushProcedureTest {

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void bothWaysOfFlushingATableFlushIt() throws Exception {
    try (Cellar created = Cellar.open(dir, CellarConfig.defaults())) {
      created.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    }
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      Cellar cellar = server.database();
      try (RawRpcClient client = RawRpcClient.connect(server.address(), "MasterService")) {
        cellar.table("t").put(new Put(bytes("a")).addColumn(bytes("f"), bytes("q"), bytes("1")));
        client.call(
            "FlushTable",
            MasterProtos.FlushTableRequest.newBuilder()
                .setTableName(
                    HBaseProtos.TableName.newBuilder()
                        .setNamespace(ByteString.copyFromUtf8("default"))
                        .setQualifier(ByteString.copyFromUtf8("t")))
                .build(),
            null);
        assertTrue(MasterProtos.FlushTableResponse.parseFrom(client.read().body()).hasProcId());
        assertEquals(1, stats(server).storeFiles());

        cellar.table("t").put(new Put(bytes("b")).addColumn(bytes("f"), bytes("q"), bytes("2")));
        HBaseProtos.ProcedureDescription flush =
            HBaseProtos.ProcedureDescription.newBuilder()
                .setSignature("flush-table-proc")
                .setInstance("t")
                .build();
        client.call(
            "ExecProcedure",
            MasterProtos.ExecProcedureRequest.newBuilder().setProcedure(flush).build(),
            null);
        MasterProtos.ExecProcedureResponse.parseFrom(client.read().body());
        assertEquals(2, stats(server).storeFiles());
        client.call(
            "IsProcedureDone",
            MasterProtos.IsProcedureDoneRequest.newBuilder().setProcedure(flush).build(),
            null);
        assertTrue(MasterProtos.IsProcedureDoneResponse.parseFrom(client.read().body()).getDone());

        client.call(
            "ExecProcedure",
            MasterProtos.ExecProcedureRequest.newBuilder()
                .setProcedure(flush.toBuilder().setSignature("online-snapshot"))
                .build(),
            null);
        RawRpcClient.Response refused = client.read();
        assertTrue(refused.header().hasException());
        assertTrue(
            refused.header().getException().getStackTrace().contains("'online-snapshot'"),
            refused.header().getException().getStackTrace());
        assertFalse(refused.header().getException().getExceptionClassName().isEmpty());
      }
    }
  }

  private static RegionStats stats(CellarServer server) {
    return EngineAccess.engine(server.database()).regionStats("t").getFirst();
  }
}
