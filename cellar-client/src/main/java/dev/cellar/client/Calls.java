package dev.cellar.client;

import dev.cellar.Mutation;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcClient;
import dev.cellar.client.rpc.RpcResponse;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * One attempt of each ClientService call a table makes, with the service's name, the client's RPC
 * timeout and the request cell block of a batch's mutations filled in. Thread-safe.
 */
final class Calls {

  static final String CLIENT_SERVICE = "ClientService";

  private final RpcClient rpc;
  private final ClientSettings settings;

  Calls(RpcClient rpc, ClientSettings settings) {
    this.rpc = rpc;
    this.settings = settings;
  }

  RpcClient rpc() {
    return rpc;
  }

  ClientSettings settings() {
    return settings;
  }

  <M extends Message> RpcResponse<M> call(
      String method, Message request, ByteBuf cells, Parser<M> parser) throws IOException {
    return Retrier.await(
        rpc.call(CLIENT_SERVICE, method, request, cells, parser, settings.rpcTimeoutMillis()));
  }

  /** A Multi of {@code mutations} on {@code region}, their cells in the request's cell block. */
  RpcResponse<ClientProtos.MultiResponse> mutate(byte[] region, List<? extends Mutation> mutations)
      throws IOException {
    ClientProtos.RegionAction.Builder action =
        ClientProtos.RegionAction.newBuilder().setRegion(Protos.region(region));
    for (int i = 0; i < mutations.size(); i++) {
      action.addAction(
          ClientProtos.Action.newBuilder()
              .setIndex(i)
              .setMutation(Protos.mutation(mutations.get(i))));
    }
    ClientProtos.MultiRequest request =
        ClientProtos.MultiRequest.newBuilder().addRegionAction(action).build();
    return call(
        "Multi",
        request,
        CellBlocks.encode(rpc.allocator(), mutations),
        ClientProtos.MultiResponse.parser());
  }

  /**
   * The failure of a region action's result: the region's own, else the first action's; null when
   * every action succeeded.
   */
  static RemoteException failure(ClientProtos.RegionActionResult result) {
    if (result.hasException()) {
      return exception(result.getException());
    }
    for (ClientProtos.ResultOrException outcome : result.getResultOrExceptionList()) {
      if (outcome.hasException()) {
        return exception(outcome.getException());
      }
    }
    return null;
  }

  static RemoteException exception(HBaseProtos.NameBytesPair pair) {
    return new RemoteException(pair.getName(), pair.getValue().toStringUtf8(), false, false);
  }
}
