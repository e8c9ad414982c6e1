package dev.cellar.server.service;

import dev.cellar.cell.KeyValue;
import dev.cellar.server.catalog.MetaKeys;
import dev.cellar.server.catalog.MetaTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * Reads of hbase:meta, which the server answers from its {@link MetaTable} (a handful of heap rows,
 * one per table) rather than from storage: a Get's row and a Scan's rows, with the columns the
 * request names. Counts the rows it hands out, as a region counts its read requests (a Get that
 * finds its row, each row a scan returns), for hbase:meta's region load. Thread-safe (the meta
 * table hands out immutable rows; the count is a {@link LongAdder}).
 */
final class MetaReads {

  private final MetaTable meta;
  private final LongAdder rowsRead = new LongAdder();

  MetaReads(MetaTable meta) {
    this.meta = meta;
  }

  /** The cells of a Get's row, restricted to its columns (empty when there is no such row). */
  List<KeyValue> get(ClientProtos.Get proto) {
    MetaTable.Row row = meta.row(proto.getRow().toByteArray());
    if (row == null) {
      return List.of();
    }
    rowsRead.increment();
    return selectColumns(row.cells(), proto.getColumnList());
  }

  /** The rows a scan selects, each counted as read when the scan hands it out. */
  RowSource scan(ClientProtos.Scan scan) {
    return RowSource.of(select(scan), rowsRead::increment);
  }

  /** The rows read so far: by Gets that found their row and handed out by scans. */
  long rowsRead() {
    return rowsRead.sum();
  }

  /** The rows a scan selects, in the scan's direction, each restricted to its columns. */
  private List<MetaTable.Row> select(ClientProtos.Scan scan) {
    byte[] start = scan.getStartRow().toByteArray();
    byte[] stop = scan.getStopRow().toByteArray();
    boolean reversed = scan.getReversed();
    boolean includeStart = !scan.hasIncludeStartRow() || scan.getIncludeStartRow();
    boolean includeStop = scan.getIncludeStopRow();
    List<MetaTable.Row> all = new ArrayList<>(meta.rows());
    if (reversed) {
      Collections.reverse(all);
    }
    List<MetaTable.Row> selected = new ArrayList<>();
    for (MetaTable.Row row : all) {
      int fromStart =
          start.length == 0 ? 1 : direction(reversed, MetaKeys.compare(row.key(), start));
      int toStop = stop.length == 0 ? -1 : direction(reversed, MetaKeys.compare(row.key(), stop));
      boolean afterStart = fromStart > 0 || (fromStart == 0 && includeStart);
      boolean beforeStop = toStop < 0 || (toStop == 0 && includeStop);
      if (afterStart && beforeStop) {
        List<KeyValue> cells = selectColumns(row.cells(), scan.getColumnList());
        if (!cells.isEmpty()) {
          selected.add(new MetaTable.Row(row.key(), cells));
        }
      }
    }
    return selected;
  }

  private static int direction(boolean reversed, int order) {
    return reversed ? -order : order;
  }

  private static List<KeyValue> selectColumns(
      List<KeyValue> cells, List<ClientProtos.Column> columns) {
    if (columns.isEmpty()) {
      return cells;
    }
    List<KeyValue> selected = new ArrayList<>();
    for (KeyValue cell : cells) {
      for (ClientProtos.Column column : columns) {
        if (Arrays.equals(cell.familyArray(), column.getFamily().toByteArray())
            && (column.getQualifierCount() == 0
                || column.getQualifierList().stream()
                    .anyMatch(q -> Arrays.equals(q.toByteArray(), cell.qualifierArray())))) {
          selected.add(cell);
          break;
        }
      }
    }
    return selected;
  }
}
