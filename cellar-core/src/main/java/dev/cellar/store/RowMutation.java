package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.schema.Durability;
import java.util.List;

/**
 * One row's part of a write to a {@link Region}: its cells, all of row {@code row}, applied
 * atomically, and how durable the caller wants them. The cells are used, not copied, until the
 * write is in the log: they must not change meanwhile.
 *
 * @param row the row every cell belongs to
 * @param cells the cells, in the order they are applied; timestamps of {@code LATEST_TIMESTAMP}
 *     mean the time of the write
 * @param durability how durable the write must be when the call returns
 */
public record RowMutation(byte[] row, List<? extends Cell> cells, Durability durability) {}
