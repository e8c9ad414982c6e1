package dev.cellar;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.tiered.BlockCacheFactory;
import dev.cellar.config.Settings;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.store.CompactionPolicy;
import dev.cellar.store.FamilySettings;
import dev.cellar.store.Region;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An embedded Cellar database in one directory: {@code tables/<name>/} per table (its descriptor
 * and one directory of HFiles per family) and {@code wal/}, the write-ahead log shared by every
 * table. Opening builds the process-wide parts from the configuration (the pooled buffer
 * allocator, the block cache, the MemStore chunk pool, the log, a flusher thread {@value
 * #FLUSHER_THREAD} and a compaction thread {@value #COMPACTION_THREAD}) and opens every table,
 * replaying what the log holds beyond the tables' files.
 *
 * <p>Thread-safe; {@link #close()} flushes every table and releases everything.
 */
public final class Cellar implements AutoCloseable {

  static final String FLUSHER_THREAD = "cellar-flusher";
  static final String COMPACTION_THREAD = "cellar-compaction";

  private final Path directory;
  private final Settings settings;
  private final BufAllocator allocator;
  private final BlockCache cache;
  private final ChunkPool chunkPool;
  private final WriteAheadLog wal;
  private final ExecutorService flusher;
  private final ExecutorService compactor;
  private final Region.Services services;
  private final Map<String, CellarTable> tables = new ConcurrentHashMap<>();
  private final CellarAdmin admin;

  private Cellar(Path directory, CellarConfig config) throws IOException {
    this.directory = directory;
    this.settings = config.settings();
    MemStoreConfig memStoreConfig = MemStoreConfig.from(settings);
    CompactionPolicy policy = CompactionPolicy.from(settings, memStoreConfig.flushSize());
    WalConfig walConfig = WalConfig.from(settings);
    this.allocator = new BufAllocator(BufAllocatorConfig.from(settings));
    this.cache = BlockCacheFactory.create(settings, allocator).orElse(null);
    this.chunkPool = memStoreConfig.mslabEnabled() ? new ChunkPool(memStoreConfig) : null;
    this.wal = WriteAheadLog.open(directory.resolve("wal"), walConfig);
    this.flusher = Executors.newSingleThreadExecutor(
        Thread.ofPlatform().name(FLUSHER_THREAD).daemon().factory());
    this.compactor = Executors.newSingleThreadExecutor(
        Thread.ofPlatform().name(COMPACTION_THREAD).daemon().factory());
    this.services = new Region.Services(Storage.local(), wal, cache, allocator, chunkPool, memStoreConfig, policy,
        flusher, compactor,
        settings.getBoolean(Region.Services.CACHE_COMPRESSED_DATA_KEY, false));
    this.admin = new CellarAdmin(this);
  }

  /**
   * Opens (creating if needed) the database in {@code directory}.
   *
   * @throws dev.cellar.config.InvalidConfigException naming the key of an invalid setting
   * @throws IOException if the directory, a table or the log cannot be read
   */
  public static Cellar open(Path directory, CellarConfig config) throws IOException {
    Files.createDirectories(directory.resolve("tables"));
    Cellar cellar = new Cellar(directory, config);
    try {
      cellar.openTables();
    } catch (IOException | RuntimeException e) {
      cellar.close();
      throw e;
    }
    return cellar;
  }

  private void openTables() throws IOException {
    try (Stream<Path> dirs = Files.list(directory.resolve("tables"))) {
      for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
        if (Files.exists(dir.resolve(TableDirectory.DESCRIPTOR))) {
          TableDirectory.Stored stored = TableDirectory.read(dir);
          openTable(stored.descriptor(), stored.createdAtWalId());
        }
      }
    }
  }

  CellarTable openTable(TableDescriptor descriptor, long createdAtWalId) throws IOException {
    List<FamilySettings> families = new ArrayList<>();
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      families.add(settingsOf(family));
    }
    Region region = Region.open(tableDirectory(descriptor.name()), descriptor.name(), families,
        services, createdAtWalId);
    CellarTable table = new CellarTable(descriptor, region);
    tables.put(descriptor.name(), table);
    return table;
  }

  private static FamilySettings settingsOf(ColumnFamilyDescriptor family) {
    HFileContext context = HFileContext.builder()
        .blockSize(family.blockSize())
        .encoding(family.dataBlockEncoding())
        .compression(family.compression())
        .bloomType(family.bloomFilter())
        .includesMvcc(true)
        .build();
    return new FamilySettings(family.nameBytes(), context, family.inMemory(), family.blockCache(),
        family.maxVersions(), family.ttlMillis(), family.minVersions());
  }

  Path tableDirectory(String name) {
    return directory.resolve("tables").resolve(name);
  }

  WriteAheadLog wal() {
    return wal;
  }

  Map<String, CellarTable> tables() {
    return tables;
  }

  public Admin admin() {
    return admin;
  }

  /** The table named {@code name}. @throws TableNotFoundException if there is none */
  public Table table(String name) {
    CellarTable table = tables.get(name);
    if (table == null) {
      throw new TableNotFoundException(name);
    }
    return table;
  }

  /** The block cache, or null when the configuration disables it. */
  public BlockCache blockCache() {
    return cache;
  }

  /** The pooled allocator blocks are read into. */
  public BufAllocator allocator() {
    return allocator;
  }

  /** The MemStore chunk pool, or null when the MSLAB is disabled. */
  public ChunkPool chunkPool() {
    return chunkPool;
  }

  /** The write-ahead log's counters. */
  public dev.cellar.store.wal.WalStats walStats() {
    return wal.stats();
  }

  /** Flushes and closes every table, then the log, the cache and the pools. */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (CellarTable table : tables.values().stream()
        .sorted(Comparator.comparing(CellarTable::name)).toList()) {
      try {
        table.region().close();
      } catch (IOException e) {
        failure = failure == null ? e : addSuppressed(failure, e);
      }
    }
    tables.clear();
    shutdown(flusher);
    shutdown(compactor);
    try {
      wal.close();
    } catch (IOException e) {
      failure = failure == null ? e : addSuppressed(failure, e);
    }
    if (cache != null) {
      cache.shutdown();
    }
    if (chunkPool != null) {
      chunkPool.close();
    }
    allocator.close();
    if (failure != null) {
      throw failure;
    }
  }

  private static IOException addSuppressed(IOException first, IOException next) {
    first.addSuppressed(next);
    return first;
  }

  private static void shutdown(ExecutorService executor) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(60, TimeUnit.SECONDS)) {
        throw new UncheckedIOException(new IOException("background work did not finish in 60 s"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
