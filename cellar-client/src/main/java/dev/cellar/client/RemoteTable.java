package dev.cellar.client;

import dev.cellar.Delete;
import dev.cellar.Get;
import dev.cellar.Mutation;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.RowReader;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcResponse;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.CompareOperator;
import dev.cellar.spi.ApiAccess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * {@link Table} over the server's ClientService: a get is a Get call, a put or delete a Mutate,
 * several gets or mutations one Multi (whose puts and deletes the server applies as one batch, as
 * {@link Table#batch} does embedded), a conditional mutation a Mutate with a condition, a scanner a
 * {@link RemoteScanner}. Every operation runs under the client's {@link Retrier}. Results hold
 * their cells in the response's pooled buffer until closed, as embedded results hold blocks.
 *
 * <p>{@link #rowReader()} and {@link #rowScanner} work as embedded, their row views' cells decoded
 * in place in the answers' pooled cell blocks; each read or batch is a call, which allocates its
 * messages.
 *
 * <p>Thread-safe: the table keeps no per-call state.
 */
final class RemoteTable implements Table {

  private final String name;
  private final Calls calls;
  private final Retrier retrier;
  private final RegionLocator locator;

  RemoteTable(String name, Calls calls, Retrier retrier, RegionLocator locator) {
    this.name = name;
    this.calls = calls;
    this.retrier = retrier;
    this.locator = locator;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void put(Put put) throws IOException {
    mutate("put", put);
  }

  @Override
  public void put(List<Put> puts) throws IOException {
    batch(puts);
  }

  @Override
  public void delete(Delete delete) throws IOException {
    mutate("delete", delete);
  }

  private void mutate(String what, Mutation mutation) throws IOException {
    retrier.run(
        what + " on " + name,
        name,
        () -> {
          ClientProtos.MutateRequest request =
              ClientProtos.MutateRequest.newBuilder()
                  .setRegion(Protos.region(locator.region(name, mutation.row())))
                  .setMutation(Protos.mutation(mutation))
                  .build();
          calls
              .call(
                  "Mutate",
                  request,
                  CellBlocks.encode(calls.rpc().allocator(), List.of(mutation)),
                  ClientProtos.MutateResponse.parser())
              .release();
          return null;
        });
  }

  @Override
  public Result get(Get get) throws IOException {
    ClientProtos.Get proto = Protos.get(get);
    return retrier.run(
        "get on " + name,
        name,
        () -> {
          ClientProtos.GetRequest request =
              ClientProtos.GetRequest.newBuilder()
                  .setRegion(Protos.region(locator.region(name, get.row())))
                  .setGet(proto)
                  .build();
          RpcResponse<ClientProtos.GetResponse> response =
              calls.call("Get", request, null, ClientProtos.GetResponse.parser());
          try (ResponseCells cells = new ResponseCells(response.cells())) {
            return cells.result(response.message().getResult());
          }
        });
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    if (gets.isEmpty()) {
      return new Result[0];
    }
    return retrier.run(
        "multi-get on " + name,
        name,
        () -> {
          Map<ByteBuffer, ClientProtos.RegionAction.Builder> actions = new LinkedHashMap<>();
          for (int i = 0; i < gets.size(); i++) {
            byte[] region = locator.region(name, gets.get(i).row());
            actions
                .computeIfAbsent(
                    ByteBuffer.wrap(region),
                    r -> ClientProtos.RegionAction.newBuilder().setRegion(Protos.region(region)))
                .addAction(
                    ClientProtos.Action.newBuilder().setIndex(i).setGet(Protos.get(gets.get(i))));
          }
          ClientProtos.MultiRequest.Builder request = ClientProtos.MultiRequest.newBuilder();
          actions.values().forEach(request::addRegionAction);
          RpcResponse<ClientProtos.MultiResponse> response =
              calls.call("Multi", request.build(), null, ClientProtos.MultiResponse.parser());
          try (ResponseCells cells = new ResponseCells(response.cells())) {
            for (ClientProtos.RegionActionResult result :
                response.message().getRegionActionResultList()) {
              RemoteException failure = Calls.failure(result);
              if (failure != null) {
                throw failure;
              }
            }
            return results(response.message(), cells, gets.size());
          }
        });
  }

  /**
   * The results of a multi-get, in request order, their cells taken in response order (region after
   * region, as the server answers).
   */
  private static Result[] results(
      ClientProtos.MultiResponse response, ResponseCells cells, int count) throws IOException {
    Result[] results = new Result[count];
    try {
      for (ClientProtos.RegionActionResult result : response.getRegionActionResultList()) {
        for (ClientProtos.ResultOrException outcome : result.getResultOrExceptionList()) {
          results[outcome.getIndex()] = cells.result(outcome.getResult());
        }
      }
      for (int i = 0; i < count; i++) {
        if (results[i] == null) {
          throw new IOException("the server's answer to a multi-get has no result for get " + i);
        }
      }
      return results;
    } catch (IOException | RuntimeException e) {
      for (Result built : results) {
        if (built != null) {
          built.close();
        }
      }
      throw e;
    }
  }

  /** A reader whose every read is one Get call (see {@link RemotePointReads}). */
  @Override
  public RowReader rowReader() {
    return ApiAccess.<Get, Result, RowReader, RowScanner, RowView>makers()
        .rowReader(new RemotePointReads(name, calls, retrier, locator));
  }

  @Override
  public ResultScanner scanner(Scan scan) throws IOException {
    RemoteScanner scanner = new RemoteScanner(name, scan, calls, retrier, locator);
    try {
      scanner.open();
    } catch (IOException | RuntimeException e) {
      scanner.close();
      throw e;
    }
    return scanner;
  }

  /** A scanner over the server's Scan call whose rows stay in their batches' cell blocks. */
  @Override
  public RowScanner rowScanner(Scan scan) throws IOException {
    RemoteScanner scanner = new RemoteScanner(name, scan, calls, retrier, locator);
    try {
      scanner.open();
    } catch (IOException | RuntimeException e) {
      scanner.close();
      throw e;
    }
    return ApiAccess.<Get, Result, RowReader, RowScanner, RowView>makers()
        .rowScanner(scanner, scan.limit());
  }

  @Override
  public void batch(List<? extends Mutation> mutations) throws IOException {
    if (mutations.isEmpty()) {
      return;
    }
    retrier.run(
        "batch of " + mutations.size() + " on " + name,
        name,
        () -> {
          List<byte[]> regions = new ArrayList<>(mutations.size());
          for (Mutation mutation : mutations) {
            regions.add(locator.region(name, mutation.row()));
          }
          RpcResponse<ClientProtos.MultiResponse> response = calls.mutate(regions, mutations);
          response.release();
          for (ClientProtos.RegionActionResult result :
              response.message().getRegionActionResultList()) {
            RemoteException failure = Calls.failure(result);
            if (failure != null) {
              throw failure;
            }
          }
          return null;
        });
  }

  @Override
  public boolean checkAndMutate(
      byte[] family, byte[] qualifier, CompareOperator operator, byte[] value, Mutation mutation)
      throws IOException {
    return checkAndMutate(
        Protos.condition(mutation.row(), family, qualifier, operator, value), mutation);
  }

  @Override
  public boolean checkAndMutateWithComparator(
      byte[] family,
      byte[] qualifier,
      CompareOperator operator,
      ByteArrayComparable comparator,
      Mutation mutation)
      throws IOException {
    return checkAndMutate(
        Protos.condition(mutation.row(), family, qualifier, operator, comparator), mutation);
  }

  private boolean checkAndMutate(ClientProtos.Condition condition, Mutation mutation)
      throws IOException {
    return retrier.run(
        "checkAndMutate on " + name,
        name,
        () -> {
          ClientProtos.MutateRequest request =
              ClientProtos.MutateRequest.newBuilder()
                  .setRegion(Protos.region(locator.region(name, mutation.row())))
                  .setMutation(Protos.mutation(mutation))
                  .setCondition(condition)
                  .build();
          RpcResponse<ClientProtos.MutateResponse> response =
              calls.call(
                  "Mutate",
                  request,
                  CellBlocks.encode(calls.rpc().allocator(), List.of(mutation)),
                  ClientProtos.MutateResponse.parser());
          response.release();
          return response.message().getProcessed();
        });
  }

  @Override
  public String toString() {
    return "RemoteTable[" + name + " at " + calls.rpc().address() + "]";
  }
}
