package dev.cellar.client;

import dev.cellar.Mutation;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcClient;
import dev.cellar.client.rpc.RpcResponse;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * A Multi of {@code mutations}, each on the region of the same position in {@code regions}: one
   * region action per region, in the order the regions first appear, each action keeping its
   * mutation's position as its index; their cells go into the request's cell block in the order of
   * the actions, as the server reads them.
   */
  RpcResponse<ClientProtos.MultiResponse> mutate(
      List<byte[]> regions, List<? extends Mutation> mutations) throws IOException {
    Map<ByteBuffer, ClientProtos.RegionAction.Builder> actions = new LinkedHashMap<>();
    Map<ByteBuffer, List<Mutation>> cellsOf = new LinkedHashMap<>();
    for (int i = 0; i < mutations.size(); i++) {
      byte[] name = regions.get(i);
      ByteBuffer region = ByteBuffer.wrap(name);
      actions
          .computeIfAbsent(
              region, r -> ClientProtos.RegionAction.newBuilder().setRegion(Protos.region(name)))
          .addAction(
              ClientProtos.Action.newBuilder()
                  .setIndex(i)
                  .setMutation(Protos.mutation(mutations.get(i))));
      cellsOf.computeIfAbsent(region, r -> new ArrayList<>()).add(mutations.get(i));
    }
    ClientProtos.MultiRequest.Builder request = ClientProtos.MultiRequest.newBuilder();
    actions.values().forEach(request::addRegionAction);
    List<Mutation> ordered = new ArrayList<>(mutations.size());
    cellsOf.values().forEach(ordered::addAll);
    return call(
        "Multi",
        request.build(),
        CellBlocks.encode(rpc.allocator(), ordered),
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
