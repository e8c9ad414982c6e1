package dev.cellar.client;

import dev.cellar.Get;
import dev.cellar.client.rpc.RpcResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * Sends raw Get calls through a client's connection without waiting between them, to observe
 * pipelining: how many calls were in flight at once, and that each was answered.
 */
final class RpcProbe {

  private final CellarClient client;
  private int maxInFlight;

  RpcProbe(CellarClient client) {
    this.client = client;
  }

  int sendGetsThenAwait(String table, byte[] row, int count) throws Exception {
    Calls calls = client.calls();
    byte[] region = client.locator().region(table, row);
    ClientProtos.GetRequest request =
        ClientProtos.GetRequest.newBuilder()
            .setRegion(Protos.region(region))
            .setGet(Protos.get(new Get(row)))
            .build();
    List<CompletableFuture<RpcResponse<ClientProtos.GetResponse>>> sent = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sent.add(
          calls
              .rpc()
              .call(
                  Calls.CLIENT_SERVICE,
                  "Get",
                  request,
                  null,
                  ClientProtos.GetResponse.parser(),
                  20_000));
      maxInFlight = Math.max(maxInFlight, client.callsInFlight());
    }
    int answered = 0;
    for (CompletableFuture<RpcResponse<ClientProtos.GetResponse>> future : sent) {
      RpcResponse<ClientProtos.GetResponse> response = future.get();
      if (response.message().getResult().getAssociatedCellCount() == 1) {
        answered++;
      }
      response.release();
    }
    return answered;
  }

  int maxInFlight() {
    return maxInFlight;
  }
}
