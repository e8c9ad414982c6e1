package dev.cellar.server.service;

import dev.cellar.Mutation;
import dev.cellar.Result;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.ValueCondition;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.filter.FilterConverter;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Condition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.MutationType;

/**
 * Applies mutations: a Mutate call, and the mutations of a Multi's region actions. A put or delete
 * goes through the {@link Mutator} into a table batch; an increment or append is a
 * read-modify-write under the row's lock, answered with the new cells; a conditional mutation
 * (checkAndMutate) is checked and applied atomically, through Cellar's check-and-mutate where it
 * can express the condition, else under the server's lock of the row.
 *
 * <p>Thread-safe: per-call state only, besides the {@link Mutator}'s row locks.
 */
final class Writes {

  private final Regions regions;
  private final Mutator mutator = new Mutator();

  Writes(Regions regions) {
    this.regions = regions;
  }

  /** The Mutate call: one mutation, perhaps conditional. */
  MutateResponse mutate(RpcCall call, MutateRequest request) throws Exception {
    if (Regions.isMeta(request.getRegion())) {
      throw RpcException.doNotRetry(
          "hbase:meta is maintained by the server and cannot be" + " written");
    }
    Regions.Target target = regions.target(request.getRegion());
    DecodedMutation decoded = DecodedMutation.decode(request.getMutation(), call.requestCells());
    target.checkRow(decoded.row(), decoded.type().name());
    MutateResponse.Builder response = MutateResponse.newBuilder();
    if (request.hasCondition()) {
      boolean processed =
          conditional(target, request.getCondition(), List.of(decoded), call, response);
      return response.setProcessed(processed).build();
    }
    ClientProtos.Result result = apply(call, target, decoded);
    if (result != null) {
      response.setResult(result);
    }
    return response.build();
  }

  /**
   * The put or delete {@code decoded} describes, for a batch of the caller's (null when it changes
   * nothing).
   */
  Mutation toMutation(Regions.Target target, DecodedMutation decoded)
      throws RpcException, IOException {
    return mutator.toMutation(target.table(), target.descriptor(), decoded);
  }

  /** Applies one mutation alone; the new cells of an increment or append, else null. */
  ClientProtos.Result apply(RpcCall call, Regions.Target target, DecodedMutation decoded)
      throws RpcException, IOException {
    if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
      return ResultEncoder.encode(
          call,
          mutator.readModifyWrite(target.table(), target.descriptor(), decoded),
          ConvertedFilter.NONE);
    }
    Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), decoded);
    if (mutation != null) {
      target.table().batch(List.of(mutation));
    }
    return null;
  }

  /**
   * Applies {@code mutations} (one row) if {@code condition} holds, returning whether it did. A
   * single put or delete checked against a value goes through Cellar's atomic check-and-mutate;
   * anything else (a filter, a time range, several mutations, increments) is checked and applied
   * under the server's lock of the row.
   */
  boolean conditional(
      Regions.Target target,
      Condition condition,
      List<DecodedMutation> mutations,
      RpcCall call,
      MutateResponse.Builder single)
      throws RpcException, IOException {
    for (DecodedMutation decoded : mutations) {
      if (!Arrays.equals(decoded.row(), condition.getRow().toByteArray())) {
        throw RpcException.doNotRetry(
            "a conditional mutation's row must be the condition's"
                + " row "
                + DecodedMutation.printable(condition.getRow().toByteArray()));
      }
    }
    boolean simple =
        mutations.size() == 1
            && !condition.hasFilter()
            && !condition.hasTimeRange()
            && (mutations.get(0).type() == MutationType.PUT
                || mutations.get(0).type() == MutationType.DELETE);
    if (simple) {
      Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), mutations.get(0));
      if (mutation == null) {
        return false;
      }
      ReentrantLock lock = mutator.lockRow(mutation.row());
      try {
        return target
            .table()
            .checkAndMutateWithComparator(
                condition.getFamily().toByteArray(),
                condition.getQualifier().toByteArray(),
                conditionOperator(condition),
                FilterConverter.comparator(condition.getComparator()),
                mutation);
      } finally {
        lock.unlock();
      }
    }
    ReentrantLock lock = mutator.lockRow(condition.getRow().toByteArray());
    try {
      if (!holds(target, condition)) {
        return false;
      }
      List<Mutation> batch = new ArrayList<>();
      for (DecodedMutation decoded : mutations) {
        if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
          List<KeyValue> cells =
              mutator.readModifyWriteLocked(target.table(), target.descriptor(), decoded);
          if (single != null) {
            single.setResult(ResultEncoder.encode(call, cells, ConvertedFilter.NONE));
          }
        } else {
          Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), decoded);
          if (mutation != null) {
            batch.add(mutation);
          }
        }
      }
      if (!batch.isEmpty()) {
        target.table().batch(batch);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private boolean holds(Regions.Target target, Condition condition)
      throws RpcException, IOException {
    ClientProtos.Get.Builder get = ClientProtos.Get.newBuilder().setRow(condition.getRow());
    if (condition.hasTimeRange()) {
      get.setTimeRange(condition.getTimeRange());
    }
    if (condition.hasFilter()) {
      get.setFilter(condition.getFilter());
      ConvertedFilter filter = FilterConverter.convert(condition.getFilter());
      try (Result result = target.table().get(Reads.get(get.build(), filter))) {
        return !result.isEmpty();
      }
    }
    byte[] family = condition.getFamily().toByteArray();
    byte[] qualifier = condition.getQualifier().toByteArray();
    get.addColumn(
        ClientProtos.Column.newBuilder()
            .setFamily(condition.getFamily())
            .addQualifier(condition.getQualifier()));
    ByteArrayComparable comparator = FilterConverter.comparator(condition.getComparator());
    CompareOperator operator = conditionOperator(condition);
    try (Result result = target.table().get(Reads.get(get.build(), ConvertedFilter.NONE))) {
      return ValueCondition.holds(operator, comparator, result.getValue(family, qualifier));
    }
  }

  /** The condition's operator; NO_OP, which compares nothing, is refused as HBase refuses it. */
  private static CompareOperator conditionOperator(Condition condition) throws RpcException {
    CompareOperator operator = FilterConverter.operator(condition.getCompareType());
    if (operator == CompareOperator.NO_OP) {
      throw RpcException.doNotRetry("a condition cannot compare with NO_OP");
    }
    return operator;
  }

  /** Applies puts and deletes of one row as one batch (an atomic region action). */
  void applyAtomically(Regions.Target target, List<DecodedMutation> mutations)
      throws RpcException, IOException {
    byte[] row = mutations.isEmpty() ? null : mutations.get(0).row();
    List<Mutation> batch = new ArrayList<>();
    for (DecodedMutation decoded : mutations) {
      if (!Arrays.equals(decoded.row(), row)) {
        throw RpcException.doNotRetry(
            "an atomic batch changes one row; found "
                + DecodedMutation.printable(row)
                + " and "
                + DecodedMutation.printable(decoded.row()));
      }
      if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
        throw RpcException.doNotRetry(
            "increments and appends in an atomic batch are not" + " supported by Cellar");
      }
      Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), decoded);
      if (mutation != null) {
        batch.add(mutation);
      }
    }
    if (!batch.isEmpty()) {
      target.table().batch(batch);
    }
  }
}
