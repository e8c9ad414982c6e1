package dev.cellar.cli.experiments.encoding;

import dev.cellar.Admin;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.experiments.Directories;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A pair's table in an embedded database of its own, in a temporary directory, so each pair starts
 * with an empty block cache; the footprint on disk is the table directory's (files, descriptor and
 * manifest). {@link #close()} closes the database and deletes the directory.
 */
final class EmbeddedPairStore implements PairStore {

  private final Path directory;
  private final Cellar cellar;
  private final Table table;

  private EmbeddedPairStore(Path directory, Cellar cellar, Table table) {
    this.directory = directory;
    this.cellar = cellar;
    this.table = table;
  }

  /** Opens a fresh database per pair with {@code config}. */
  static Factory factory(CellarConfig config) {
    return new Factory() {
      @Override
      public PairStore create(String encoding, String compression, ColumnFamilyDescriptor family)
          throws IOException {
        Path directory = Files.createTempDirectory("cellar-bench-encoding-");
        try {
          Cellar cellar = Cellar.open(directory, config);
          cellar
              .admin()
              .createTable(new TableDescriptor(EncodingExperiment.TABLE, List.of(family)));
          return new EmbeddedPairStore(directory, cellar, cellar.table(EncodingExperiment.TABLE));
        } catch (IOException | RuntimeException e) {
          Directories.deleteTree(directory);
          throw e;
        }
      }

      @Override
      public String describe() {
        return "embedded, a database per pair";
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public Admin admin() {
    return cellar.admin();
  }

  @Override
  public Table table() {
    return table;
  }

  @Override
  public String tableName() {
    return EncodingExperiment.TABLE;
  }

  @Override
  public long diskBytes() throws IOException {
    return TableFootprint.bytes(directory, EncodingExperiment.TABLE);
  }

  /** Bytes in the block cache: the combined figure of two tiers, else the single cache's. */
  @Override
  public long cachedBytes() {
    CacheFigures figures = cache();
    return figures.tiers().isEmpty() ? 0 : figures.tiers().getLast().bytes();
  }

  @Override
  public CacheFigures cache() {
    return CacheFigures.of(EngineAccess.engine(cellar).blockCache());
  }

  @Override
  public void close() throws IOException {
    try {
      cellar.close();
    } finally {
      Directories.deleteTree(directory);
    }
  }
}
