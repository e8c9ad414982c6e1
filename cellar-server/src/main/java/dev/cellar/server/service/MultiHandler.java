package dev.cellar.server.service;

import dev.cellar.Mutation;
import dev.cellar.server.rpc.CellBlockReader;
import dev.cellar.server.rpc.MalformedCellBlockException;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.MutationType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionAction;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ResultOrException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * The Multi call: a batch of region actions, each a list of gets and mutations on one region. A
 * region action's puts and deletes go to the table as one batch after its gets and increments ran
 * in order; an atomic or conditional action is applied as one through {@link Writes}. A failure is
 * reported per action (or per region action when the region itself fails), never for the whole
 * call, except a request cell block too short for its mutations, which fails the call as malformed.
 *
 * <p>The request's cells are consumed in action order, so a region action that fails before its
 * mutations are decoded still skips their cells. Thread-safe: per-call state only.
 */
final class MultiHandler {

  private final Regions regions;
  private final Gets gets;
  private final Writes writes;

  MultiHandler(Regions regions, Gets gets, Writes writes) {
    this.regions = regions;
    this.gets = gets;
    this.writes = writes;
  }

  MultiResponse multi(RpcCall call, MultiRequest request) throws Exception {
    CellBlockReader cells = call.requestCells();
    MultiResponse.Builder response = MultiResponse.newBuilder();
    for (RegionAction action : request.getRegionActionList()) {
      response.addRegionActionResult(regionAction(call, action, cells));
    }
    return response.build();
  }

  private RegionActionResult regionAction(RpcCall call, RegionAction action, CellBlockReader cells)
      throws MalformedCellBlockException {
    Regions.Target target;
    try {
      if (Regions.isMeta(action.getRegion())) {
        throw RpcException.doNotRetry("batches on hbase:meta are not supported");
      }
      target = regions.target(action.getRegion());
    } catch (RpcException e) {
      skipCells(action, cells);
      return RegionActionResult.newBuilder().setException(exception(e)).build();
    }
    if (action.getAtomic() || action.hasCondition()) {
      return atomic(call, target, action, cells);
    }
    ResultOrException.Builder[] outcomes = new ResultOrException.Builder[action.getActionCount()];
    List<Mutation> pending = new ArrayList<>();
    List<Integer> pendingSlots = new ArrayList<>();
    for (int i = 0; i < outcomes.length; i++) {
      Action item = action.getAction(i);
      outcomes[i] = ResultOrException.newBuilder().setIndex(item.getIndex());
      try {
        if (item.hasGet()) {
          outcomes[i].setResult(gets.read(call, target, item.getGet()));
        } else if (item.hasMutation()) {
          DecodedMutation decoded = DecodedMutation.decode(item.getMutation(), cells);
          target.checkRow(decoded.row(), decoded.type().name());
          if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
            outcomes[i].setResult(writes.apply(call, target, decoded));
          } else {
            Mutation mutation = writes.toMutation(target, decoded);
            outcomes[i].setResult(ClientProtos.Result.getDefaultInstance());
            if (mutation != null) {
              pending.add(mutation);
              pendingSlots.add(i);
            }
          }
        } else {
          throw RpcException.doNotRetry("coprocessor calls are not supported by Cellar");
        }
      } catch (MalformedCellBlockException e) {
        throw e;
      } catch (Exception e) {
        outcomes[i].clearResult().setException(exception(e));
      }
    }
    if (!pending.isEmpty()) {
      try {
        target.table().batch(pending);
      } catch (Exception e) {
        for (int slot : pendingSlots) {
          outcomes[slot].clearResult().setException(exception(e));
        }
      }
    }
    RegionActionResult.Builder result = RegionActionResult.newBuilder();
    for (ResultOrException.Builder outcome : outcomes) {
      result.addResultOrException(outcome);
    }
    return result.build();
  }

  private RegionActionResult atomic(
      RpcCall call, Regions.Target target, RegionAction action, CellBlockReader cells)
      throws MalformedCellBlockException {
    RegionActionResult.Builder result = RegionActionResult.newBuilder();
    try {
      List<DecodedMutation> mutations = new ArrayList<>();
      for (Action item : action.getActionList()) {
        if (!item.hasMutation()) {
          throw RpcException.doNotRetry("an atomic batch holds mutations only");
        }
        DecodedMutation decoded = DecodedMutation.decode(item.getMutation(), cells);
        target.checkRow(decoded.row(), decoded.type().name());
        mutations.add(decoded);
      }
      boolean processed;
      if (action.hasCondition()) {
        processed = writes.conditional(target, action.getCondition(), mutations, call, null);
      } else {
        processed = true;
        writes.applyAtomically(target, mutations);
      }
      result.setProcessed(processed);
      for (int i = 0; i < action.getActionCount(); i++) {
        result.addResultOrException(
            ResultOrException.newBuilder()
                .setIndex(i)
                .setResult(ClientProtos.Result.getDefaultInstance()));
      }
      return result.build();
    } catch (MalformedCellBlockException e) {
      throw e;
    } catch (Exception e) {
      return RegionActionResult.newBuilder().setException(exception(e)).build();
    }
  }

  private static void skipCells(RegionAction action, CellBlockReader cells)
      throws MalformedCellBlockException {
    for (Action item : action.getActionList()) {
      if (item.hasMutation()) {
        for (int i = 0; i < item.getMutation().getAssociatedCellCount(); i++) {
          if (!cells.advance()) {
            throw new MalformedCellBlockException(
                "the request's cell block ended before the" + " cells of a batch's mutations");
          }
        }
      }
    }
  }

  private static NameBytesPair exception(Exception failure) {
    RpcException rpc =
        failure instanceof RpcException e
            ? e
            : failure instanceof dev.cellar.TableNotFoundException e
                ? RpcException.tableNotFound(e.getMessage())
                : failure instanceof IllegalArgumentException e
                    ? RpcException.doNotRetry(e.getMessage())
                    : RpcException.retriable(RpcException.IO, String.valueOf(failure));
    return NameBytesPair.newBuilder()
        .setName(rpc.className())
        .setValue(ByteString.copyFromUtf8(rpc.getMessage() == null ? "" : rpc.getMessage()))
        .build();
  }
}
