/**
 * Cellar's embedded API: a database of tables in HBase's data model, opened in this process ({@link
 * dev.cellar.Cellar#open}) or reached on a {@code cellar serve} ({@link
 * dev.cellar.Cellar#connect}), with the same types either way.
 *
 * <h2>The types, by what they are for</h2>
 *
 * <ul>
 *   <li><b>Opening a database</b>: {@link dev.cellar.Cellar} (the embedded engine and its
 *       lifecycle), {@link dev.cellar.CellarConfig} (HBase's configuration keys), {@link
 *       dev.cellar.Database} (what a local or remote database offers).
 *   <li><b>Tables and their schema</b>: {@link dev.cellar.Admin}, {@link dev.cellar.Table}, {@link
 *       dev.cellar.TableDescriptor}, {@link dev.cellar.ColumnFamilyDescriptor} with its {@link
 *       dev.cellar.schema.Compression}, {@link dev.cellar.schema.DataBlockEncoding} and {@link
 *       dev.cellar.schema.BloomType}, and {@link dev.cellar.TableNotFoundException}.
 *   <li><b>Reading</b>: {@link dev.cellar.Get} and {@link dev.cellar.Scan} (both {@link
 *       dev.cellar.Query}s); {@link dev.cellar.Result} and {@link dev.cellar.ResultScanner}, which
 *       copy nothing the caller keeps; and the garbage-free readers {@link dev.cellar.RowReader}
 *       and {@link dev.cellar.RowScanner}, whose {@link dev.cellar.RowView} is valid until the next
 *       row.
 *   <li><b>Writing</b>: {@link dev.cellar.Put} and {@link dev.cellar.Delete} (both {@link
 *       dev.cellar.Mutation}s) with their {@link dev.cellar.schema.Durability}.
 *   <li><b>Tools on a database's files</b>: {@link dev.cellar.TableExport} (a table's files for
 *       HBase's bulk load), {@link dev.cellar.BulkLoad} (HBase's or Cellar's HFiles into a table)
 *       and its {@link dev.cellar.BulkLoadException}, {@link dev.cellar.DatabaseCheck} and {@link
 *       dev.cellar.DatabaseRepair} (a closed database, checked and brought back after damage).
 * </ul>
 *
 * <p>The settings a family or a mutation chooses ({@code Compression}, {@code DataBlockEncoding},
 * {@code BloomType}, {@code Durability}) are in {@code dev.cellar.schema}, below this package,
 * because the engine works with the same constants.
 *
 * <h2>What else lives here</h2>
 *
 * <p>The package-private classes are the embedded implementation of these types: the table and
 * admin behind {@link dev.cellar.Table} and {@link dev.cellar.Admin}, the table directories and
 * their names, the open's audit, the write-ahead log's placement, and the leak guard on results.
 * They stay in this package because they build its values through package-private constructors; the
 * engine proper (stores, files, caches, memory, the log) lives in the packages below, which this
 * module does not export to applications.
 */
package dev.cellar;
