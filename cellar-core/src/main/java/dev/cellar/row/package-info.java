/**
 * The rows a read assembles and the memory they keep alive: {@link dev.cellar.row.CollectedRow}
 * (one row's cells, views into cached blocks or copies), {@link dev.cellar.row.Pins} (the block
 * references a result holds until it is released), and the sources the API's readers draw rows from
 * ({@link dev.cellar.row.PointReads}, {@link dev.cellar.row.RowStream}). The embedded store fills
 * them, and so does Cellar's client from a server's responses; the server sends cells from pinned
 * blocks without copying them. Exported to those modules only.
 */
package dev.cellar.row;
