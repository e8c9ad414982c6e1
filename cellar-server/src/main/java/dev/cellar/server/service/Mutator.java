package dev.cellar.server.service;

import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Delete;
import dev.cellar.Get;
import dev.cellar.Mutation;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.MutationType;

/**
 * Applies decoded mutations to a table through Cellar's public API.
 *
 * <ul>
 *   <li>Puts and deletes become {@link Put}s and {@link Delete}s; a delete with no columns deletes
 *       the whole row (up to its timestamp, when given). HBase's "delete the latest version" (a
 *       one-version delete without a timestamp) reads the column's newest timestamp first.
 *   <li>Increments and appends read, compute and write under a per-row lock of this server ({@link
 *       #lockRow}), so they are atomic with each other and with conditional mutations that take the
 *       same lock; they return the new cells.
 * </ul>
 *
 * Families are checked against the table's descriptor (NoSuchColumnFamilyException). Thread-safe:
 * the row locks are striped, everything else is per call.
 */
final class Mutator {

  private static final int STRIPES = 256;
  private final ReentrantLock[] rowLocks = new ReentrantLock[STRIPES];

  Mutator() {
    for (int i = 0; i < STRIPES; i++) {
      rowLocks[i] = new ReentrantLock();
    }
  }

  /** Locks {@code row}'s stripe; the caller unlocks the returned lock. */
  ReentrantLock lockRow(byte[] row) {
    ReentrantLock lock = rowLocks[Math.floorMod(java.util.Arrays.hashCode(row), STRIPES)];
    lock.lock();
    return lock;
  }

  /**
   * Cellar's mutation for a put or delete; null for a delete that turned out to delete nothing (a
   * latest-version delete of a column without versions).
   */
  Mutation toMutation(Table table, TableDescriptor descriptor, DecodedMutation decoded)
      throws RpcException, IOException {
    for (DecodedMutation.Column column : decoded.columns()) {
      requireFamily(descriptor, column.family());
    }
    return switch (decoded.type()) {
      case PUT -> {
        if (decoded.columns().isEmpty()) {
          throw RpcException.doNotRetry(
              "a Put of row " + DecodedMutation.printable(decoded.row()) + " has no columns");
        }
        Put put = new Put(decoded.row());
        for (DecodedMutation.Column column : decoded.columns()) {
          if (column.type() != CellType.PUT) {
            throw RpcException.doNotRetry("a Put carries a " + column.type() + " cell");
          }
          put.addColumn(column.family(), column.qualifier(), column.timestamp(), column.value());
        }
        put.setDurability(decoded.durability());
        yield put;
      }
      case DELETE -> toDelete(table, descriptor, decoded);
      default -> throw RpcException.doNotRetry(decoded.type() + " is not a put or delete");
    };
  }

  private static Delete toDelete(Table table, TableDescriptor descriptor, DecodedMutation decoded)
      throws IOException, RpcException {
    Delete delete = new Delete(decoded.row());
    delete.setDurability(decoded.durability());
    if (decoded.columns().isEmpty()) {
      if (decoded.timestamp() != KeyValue.LATEST_TIMESTAMP) {
        for (ColumnFamilyDescriptor family : descriptor.families()) {
          delete.addFamily(family.nameBytes(), decoded.timestamp());
        }
      }
      return delete;
    }
    for (DecodedMutation.Column column : decoded.columns()) {
      switch (column.type()) {
        case DELETE -> {
          long ts = column.timestamp();
          if (ts == KeyValue.LATEST_TIMESTAMP) {
            ts = newestTimestamp(table, decoded.row(), column.family(), column.qualifier());
            if (ts < 0) {
              continue;
            }
          }
          delete.addColumn(column.family(), column.qualifier(), ts);
        }
        case DELETE_COLUMN ->
            delete.addColumns(column.family(), column.qualifier(), column.timestamp());
        case DELETE_FAMILY -> delete.addFamily(column.family(), column.timestamp());
        case DELETE_FAMILY_VERSION -> delete.addFamilyVersion(column.family(), column.timestamp());
        default -> throw RpcException.doNotRetry("a Delete carries a " + column.type() + " cell");
      }
    }
    return delete.isEmpty() ? null : delete;
  }

  private static long newestTimestamp(Table table, byte[] row, byte[] family, byte[] qualifier)
      throws IOException {
    try (Result result = table.get(new Get(row).addColumn(family, qualifier))) {
      Cell cell = result.latestCell(family, qualifier);
      return cell == null ? -1 : cell.timestamp();
    }
  }

  /**
   * Applies an increment or append under the row's lock and returns the new cells, sorted by family
   * and qualifier.
   */
  List<KeyValue> readModifyWrite(Table table, TableDescriptor descriptor, DecodedMutation decoded)
      throws IOException, RpcException {
    ReentrantLock lock = lockRow(decoded.row());
    try {
      return readModifyWriteLocked(table, descriptor, decoded);
    } finally {
      lock.unlock();
    }
  }

  /** As {@link #readModifyWrite}, the caller holding the row's lock. */
  List<KeyValue> readModifyWriteLocked(
      Table table, TableDescriptor descriptor, DecodedMutation decoded)
      throws IOException, RpcException {
    boolean increment = decoded.type() == MutationType.INCREMENT;
    Get get = new Get(decoded.row());
    for (DecodedMutation.Column column : decoded.columns()) {
      requireFamily(descriptor, column.family());
      get.addColumn(column.family(), column.qualifier());
    }
    long now = System.currentTimeMillis();
    Put put = new Put(decoded.row());
    put.setDurability(decoded.durability());
    List<KeyValue> written = new ArrayList<>();
    try (Result current = table.get(get)) {
      for (DecodedMutation.Column column : decoded.columns()) {
        Cell old = current.latestCell(column.family(), column.qualifier());
        byte[] value = increment ? incremented(old, column) : appended(old, column);
        long ts = old == null ? now : Math.max(now, old.timestamp() + 1);
        put.addColumn(column.family(), column.qualifier(), ts, value);
        written.add(
            KeyValue.create(
                decoded.row(), column.family(), column.qualifier(), ts, CellType.PUT, value));
      }
    }
    if (!decoded.columns().isEmpty()) {
      table.put(put);
    }
    written.sort(dev.cellar.cell.CellComparator.INSTANCE::compare);
    return written;
  }

  private static byte[] incremented(Cell old, DecodedMutation.Column column) throws RpcException {
    if (column.value().length != 8) {
      throw RpcException.doNotRetry("an increment amount is 8 bytes, was " + column.value().length);
    }
    long amount = ByteBuffer.wrap(column.value()).getLong();
    long base = 0;
    if (old != null) {
      if (old.valueLength() != 8) {
        throw RpcException.doNotRetry(
            "Field is not a long, it's " + old.valueLength() + " bytes wide");
      }
      base = ByteBuffer.wrap(old.valueArray()).getLong();
    }
    return ByteBuffer.allocate(8).putLong(base + amount).array();
  }

  private static byte[] appended(Cell old, DecodedMutation.Column column) {
    if (old == null) {
      return column.value();
    }
    byte[] before = old.valueArray();
    byte[] value = new byte[before.length + column.value().length];
    System.arraycopy(before, 0, value, 0, before.length);
    System.arraycopy(column.value(), 0, value, before.length, column.value().length);
    return value;
  }

  static void requireFamily(TableDescriptor descriptor, byte[] family) throws RpcException {
    String name = new String(family, java.nio.charset.StandardCharsets.UTF_8);
    if (descriptor.family(name) == null) {
      throw RpcException.doNotRetry(
          RpcException.NO_SUCH_COLUMN_FAMILY,
          "Column family " + name + " does not exist in table " + descriptor.name());
    }
  }
}
