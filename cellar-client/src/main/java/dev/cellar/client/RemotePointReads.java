package dev.cellar.client;

import dev.cellar.Get;
import dev.cellar.client.rpc.RpcResponse;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.PointReads;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * A {@code RowReader}'s reads through the server: one Get call per read (with the table's retry
 * rules), the row's cells left in the answer's pooled cell block as views the reader's row holder
 * pins until its next read. Keeps nothing between reads. Not thread-safe: one reader thread.
 */
final class RemotePointReads implements PointReads<Get> {

  private final String table;
  private final Calls calls;
  private final Retrier retrier;
  private final RegionLocator locator;

  RemotePointReads(String table, Calls calls, Retrier retrier, RegionLocator locator) {
    this.table = table;
    this.calls = calls;
    this.retrier = retrier;
    this.locator = locator;
  }

  @Override
  public void read(Get get, CollectedRow into) throws IOException {
    ClientProtos.Get proto = Protos.get(get);
    retrier.run(
        "get on " + table,
        table,
        () -> {
          ClientProtos.GetRequest request =
              ClientProtos.GetRequest.newBuilder()
                  .setRegion(Protos.region(locator.region(table, proto.getRow())))
                  .setGet(proto)
                  .build();
          RpcResponse<ClientProtos.GetResponse> response =
              calls.call("Get", request, null, ClientProtos.GetResponse.parser());
          try (ResponseCells cells = new ResponseCells(response.cells())) {
            cells.moveInto(response.message().getResult(), into);
          }
          return null;
        });
  }

  @Override
  public void close() {
    // nothing is kept between reads
  }
}
