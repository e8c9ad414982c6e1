package dev.cellar;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.cache.tiered.BlockCacheFactory;
import dev.cellar.config.Settings;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.io.StorageLock;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.GcPauseMonitor;
import dev.cellar.metrics.RegionStats;
import dev.cellar.observe.MetricSource;
import dev.cellar.observe.ObservedDatabase;
import dev.cellar.observe.http.InfoServerConfig;
import dev.cellar.observe.http.Observability;
import dev.cellar.spi.Engine;
import dev.cellar.spi.RemoteConnector;
import dev.cellar.store.CompactionPolicy;
import dev.cellar.store.CompactionThrottle;
import dev.cellar.store.FamilySettings;
import dev.cellar.store.MemStorePressure;
import dev.cellar.store.Region;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.RecoveryBounds;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WalStats;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded Cellar database in one directory: {@code tables/<name>/} per table (its descriptor
 * and one directory of HFiles per family) and {@code wal/}, the write-ahead log shared by every
 * table. Opening builds the process-wide parts from the configuration (the pooled buffer allocator,
 * the block cache, the MemStore chunk pool, the log, a flusher thread {@value #FLUSHER_THREAD} and
 * a compaction thread {@value #COMPACTION_THREAD}) and opens every table, replaying what the log
 * holds beyond the tables' files.
 *
 * <p><b>Storage.</b> A database lives on the local disk or, by URI, on another file system such as
 * HDFS ({@link #open(String, CellarConfig)}); every file operation goes through one {@link
 * Storage}. Its log may live elsewhere, on the same file system or another, as HBase's {@value
 * CellarConfig#WAL_DIR} puts it ({@link WalPlacement}); an open that finds signs of the wrong log
 * (a log bound to another database, segments left in the database's own {@code wal/}, a log behind
 * the tables' files) fails before the database takes a write.
 *
 * <p><b>One process per directory.</b> Opening first takes the directory's lock ({@link
 * Storage#lock}: its {@code LOCK} file, held with an OS lock or an HDFS lease), before it reads or
 * writes anything there, and {@link #close()} releases it last: a second open of the same
 * directory, in this JVM or another process, fails at once with a {@link
 * dev.cellar.io.DirectoryLockedException} naming the directory and the holder, and the first goes
 * on undisturbed. The log's directory has a lock of its own, taken next, so two databases never
 * share one log either.
 *
 * <p><b>Failure.</b> An open that fails releases everything it built (threads, log, cache, pools,
 * lock) before it throws. {@link #close()} goes through every step even when one fails or the
 * background work does not stop in time, and throws the first failure at the end.
 *
 * <p>Thread-safe; {@link #close()} flushes every table and releases everything.
 */
public final class Cellar implements Database {

  private static final Logger LOG = LoggerFactory.getLogger(Cellar.class);

  static final String FLUSHER_THREAD = "cellar-flusher";
  static final String COMPACTION_THREAD = "cellar-compaction";
  private static final long SHUTDOWN_SECONDS = 60;

  private final Path directory;
  private final StorageLock lock;
  private final Storage storage;

  /** Closed last: the connection to a file system other than the local one, or null. */
  private StorageLocation location;

  /** Where the log lives; closed after the log, ending its own connection if it has one. */
  private final WalPlacement walPlacement;

  private final Settings settings;
  private final BufAllocator allocator;
  private final BlockCache cache;

  /** The block cache's miss-ratio curve, or null when there is no cache or it is turned off. */
  private final MissRatioCurveTracker curve;

  private final ChunkPool chunkPool;
  private final WriteAheadLog wal;
  private final ExecutorService flusher;
  private final ExecutorService compactor;
  private final EngineMetrics metrics;
  private final GcPauseMonitor gcPauses;
  private final Region.Services services;
  private final Map<String, CellarTable> tables = new ConcurrentHashMap<>();
  private final CellarAdmin admin;
  private final long startMillis = System.currentTimeMillis();

  /** JMX and the info server; set once the tables are open, null before. */
  private volatile Observability observability;

  /**
   * Builds the process-wide parts in order, each failure closing what was built before it; the
   * caller holds {@code lock} and releases it if this throws.
   */
  private Cellar(
      Path directory,
      CellarConfig config,
      Storage storage,
      StorageLock lock,
      WalPlacement walPlacement,
      RecoveryBounds bounds)
      throws IOException {
    this.directory = directory;
    this.lock = lock;
    this.storage = storage;
    this.walPlacement = walPlacement;
    this.settings = config.settings();
    MemStoreConfig memStoreConfig = MemStoreConfig.from(settings);
    CompactionPolicy policy = CompactionPolicy.from(settings, memStoreConfig.flushSize());
    CompactionThrottle throttle = CompactionThrottle.from(settings);
    WalConfig walConfig = WalConfig.from(settings);
    boolean cacheCompressed = settings.getBoolean(Region.Services.CACHE_COMPRESSED_DATA_KEY, false);
    this.metrics = new EngineMetrics(settings.getBoolean(Observability.METRICS_ENABLED_KEY, true));
    this.allocator = new BufAllocator(BufAllocatorConfig.from(settings));
    BlockCache createdCache = null;
    ChunkPool createdPool = null;
    try {
      createdCache = BlockCacheFactory.create(settings, allocator).orElse(null);
      this.curve = createdCache == null ? null : curveOf(createdCache);
      createdPool = memStoreConfig.mslabEnabled() ? new ChunkPool(memStoreConfig) : null;
      this.wal =
          WriteAheadLog.open(walPlacement.storage(), walPlacement.directory(), walConfig, bounds);
    } catch (IOException | RuntimeException e) {
      if (createdCache != null) {
        createdCache.shutdown();
      }
      if (createdPool != null) {
        createdPool.close();
      }
      allocator.close();
      throw e;
    }
    this.cache = createdCache;
    this.chunkPool = createdPool;
    this.flusher =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name(FLUSHER_THREAD).daemon().factory());
    this.compactor =
        Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name(COMPACTION_THREAD).daemon().factory());
    this.services =
        new Region.Services(
            storage,
            wal,
            cache,
            allocator,
            chunkPool,
            memStoreConfig,
            policy,
            flusher,
            compactor,
            cacheCompressed,
            throttle,
            metrics,
            curve,
            new MemStorePressure(
                MemStoreConfig.globalMemStoreSize(settings, Runtime.getRuntime().maxMemory()),
                flusher));
    this.gcPauses = GcPauseMonitor.start(metrics);
    this.admin = new CellarAdmin(this);
  }

  /**
   * Opens (creating if needed) the database in {@code directory}.
   *
   * @throws dev.cellar.config.InvalidConfigException naming the key of an invalid setting
   * @throws dev.cellar.io.DirectoryLockedException if another open, in this process or another,
   *     holds the directory
   * @throws IOException if the directory, a table or the log cannot be read
   */
  public static Cellar open(Path directory, CellarConfig config) throws IOException {
    return open(StorageLocation.local(directory), config);
  }

  /**
   * Opens (creating if needed) the database at HBase's {@value CellarConfig#ROOT_DIR} in {@code
   * config}, as {@link #open(String, CellarConfig)}.
   *
   * @throws IllegalArgumentException if {@code config} has no {@value CellarConfig#ROOT_DIR}
   */
  public static Cellar open(CellarConfig config) throws IOException {
    String root = config.get(CellarConfig.ROOT_DIR);
    if (root == null || root.isBlank()) {
      throw new IllegalArgumentException(
          "no database directory: set "
              + CellarConfig.ROOT_DIR
              + " (a path or a URI such as hdfs://host:8020/cellar)");
    }
    return open(root.trim(), config);
  }

  /**
   * A client of the {@code cellar serve} at {@code hostAndPort} ({@code host:port}), with the same
   * {@link Table} and {@link Admin} as an embedded database: code written against {@link Database}
   * moves from {@link #open} to a server by changing that one call. Needs the {@code cellar-client}
   * module on the class path (found through {@link java.util.ServiceLoader}).
   *
   * @throws IllegalStateException if {@code cellar-client} is not on the class path
   * @throws IllegalArgumentException if the address is not {@code host:port}
   */
  public static Database connect(String hostAndPort) {
    RemoteConnector<?> connector =
        java.util.ServiceLoader.load(RemoteConnector.class)
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "Cellar.connect(\""
                            + hostAndPort
                            + "\") needs the cellar-client module on the class path"));
    return (Database) connector.connect(hostAndPort);
  }

  /**
   * Opens (creating if needed) the database at {@code location}: a local path or a URI such as
   * {@code hdfs://namenode:8020/cellar/db}, whose file system's module must be on the class path
   * ({@link StorageLocation}); its client settings come from {@code config}. Closing the database
   * ends the connection.
   *
   * @throws IOException in one line naming the location if its file system is unknown or cannot be
   *     reached, or as {@link #open(Path, CellarConfig)}
   */
  public static Cellar open(String location, CellarConfig config) throws IOException {
    return open(StorageLocation.resolve(location, config.settings()), config);
  }

  /**
   * Opens the database at {@code resolved} with its log where {@value CellarConfig#WAL_DIR} says;
   * closing the database (or a failed open) ends both connections.
   */
  private static Cellar open(StorageLocation resolved, CellarConfig config) throws IOException {
    try {
      WalPlacement walPlacement = WalPlacement.resolve(resolved, config);
      Cellar cellar = open(resolved.directory(), config, resolved.storage(), walPlacement);
      cellar.location = resolved;
      return cellar;
    } catch (IOException | RuntimeException e) {
      closeQuietly(resolved, e);
      throw e;
    }
  }

  /**
   * Opens the database in {@code directory}, making every file change through {@code storage}, with
   * its log in {@code wal/} there.
   */
  static Cellar open(Path directory, CellarConfig config, Storage storage) throws IOException {
    return open(directory, config, storage, WalPlacement.inside(storage, directory));
  }

  /**
   * Opens the database in {@code directory} of {@code storage} with its log at {@code
   * walPlacement}, which the database closes (a failed open at once).
   */
  static Cellar open(
      Path directory, CellarConfig config, Storage storage, WalPlacement walPlacement)
      throws IOException {
    StorageLock lock;
    Cellar cellar;
    try {
      if (!storage.isDirectory(directory)) {
        storage.createDirectories(directory);
        Path parent = directory.toAbsolutePath().getParent();
        if (parent != null) {
          storage.syncDirectory(parent);
        }
      }
      lock = storage.lock(directory);
    } catch (IOException | RuntimeException e) {
      closeQuietly(walPlacement, e);
      throw e;
    }
    try {
      RecoveryBounds bounds = OpenAudit.verify(storage, directory);
      if (!storage.isDirectory(directory.resolve("tables"))) {
        storage.createDirectories(directory.resolve("tables"));
        storage.syncDirectory(directory);
      }
      walPlacement.claim(storage, directory);
      cellar = new Cellar(directory, config, storage, lock, walPlacement, bounds);
    } catch (IOException | RuntimeException e) {
      closeQuietly(lock, e);
      closeQuietly(walPlacement, e);
      throw e;
    }
    try {
      cellar.openTables();
      cellar.checkLogIsTheTables();
      walPlacement.bind(storage, directory);
      cellar.observability =
          Observability.start(cellar.observed(), cellar.settings, InfoServerConfig.OFF);
    } catch (IOException | RuntimeException e) {
      cellar.abortOpen(e);
      throw e;
    }
    return cellar;
  }

  /**
   * Repairs the closed database at {@code location} (a path or a URI) so that it opens, setting
   * aside in its {@code lost/} what is damaged or unaccounted for and deleting nothing; with {@code
   * dryRun} only says what it would do. See {@link DatabaseRepair}.
   *
   * @throws dev.cellar.io.DirectoryLockedException if another process holds the database
   * @throws IOException in one line if {@code location} is no database or cannot be written
   */
  public static DatabaseRepair.Report repair(String location, CellarConfig config, boolean dryRun)
      throws IOException {
    return DatabaseRepair.repair(location, config, dryRun);
  }

  /**
   * Stops as a crash would: no table is flushed, and the files and the log stay as they are; the
   * threads, the cache, the pools and the lock are released. Failures on the way are dropped.
   */
  void abort() {
    abortOpen(new IOException("aborted"));
  }

  private static void closeQuietly(AutoCloseable closeable, Exception cause) {
    try {
      closeable.close();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Releases everything after a failed open, without flushing: the tables opened so far are aborted
   * (the log still holds their edits).
   */
  private void abortOpen(Exception cause) {
    tables.values().forEach(table -> table.regions().forEach(Region::abort));
    tables.clear();
    closeQuietly(this, cause);
  }

  private void openTables() throws IOException {
    for (Path found : TableDirectory.all(storage, directory)) {
      Path dir = found;
      if (!storage.isDirectory(dir)) {
        continue;
      }
      if (TableDirectory.dropped(dir)) {
        LOG.info("deleting {}: a dropped table's directory, left by an interrupted drop", dir);
        TableDirectory.clearLeftover(storage, dir);
      } else if (!storage.isFile(dir.resolve(TableDirectory.DESCRIPTOR))) {
        LOG.info(
            "deleting {}: a table directory without a descriptor or data, left by an"
                + " interrupted create",
            dir);
        TableDirectory.clearLeftover(storage, dir);
      } else {
        TableDirectory.Stored stored = TableDirectory.read(storage, dir);
        String name = stored.descriptor().name();
        if (TableDirectory.legacy(directory, dir, name)) {
          Path moved = tableDirectory(name);
          LOG.info(
              "moving table {} from {} to {}, where a table of its namespace lives now",
              name,
              dir,
              moved);
          TableDirectory.move(storage, dir, moved);
          dir = moved;
        }
        if (!tableDirectory(stored.descriptor().name()).equals(dir.normalize())) {
          throw new IOException(
              dir.resolve(TableDirectory.DESCRIPTOR)
                  + ": names table '"
                  + stored.descriptor().name()
                  + "', whose directory is "
                  + tableDirectory(stored.descriptor().name())
                  + ", not "
                  + dir);
        }
        openTable(stored.descriptor(), stored.createdAtWalId(), stored.regions());
      }
    }
  }

  /**
   * Fails if a table's files hold edits up to a log id the log never reached: the log is not the
   * one the database was written with (an empty one, opened with another {@value
   * CellarConfig#WAL_DIR} than the last time) or it lost acknowledged edits, and new edits would
   * reuse ids that replay skips. A flushed id was forced into the log before it was recorded, and
   * the log never hands out an id twice, so the database's own, intact log is always at or beyond
   * it.
   */
  private void checkLogIsTheTables() throws IOException {
    long logReached = wal.lastSequenceId();
    for (CellarTable table : tables.values()) {
      long flushed = 0;
      for (Region region : table.regions()) {
        flushed = Math.max(flushed, region.highestFlushedWalId());
      }
      if (flushed > logReached) {
        throw new IOException(
            "table "
                + table.name()
                + " holds edits up to log id "
                + flushed
                + " in its files, but the log in "
                + walPlacement.described()
                + " reached only id "
                + logReached
                + ": the log lost edits it had acknowledged (on HDFS, a power loss of"
                + " every DataNode with hbase.wal.hsync=false) or is not this database's log (one"
                + " opened with another "
                + CellarConfig.WAL_DIR
                + "); nothing was changed");
      }
    }
  }

  /**
   * Opens the table {@code descriptor} names, created at log id {@code createdAtWalId}, with the
   * regions {@code regions} (none for a table kept whole in its directory: see {@link
   * TableRegions}); a failure closes the regions opened so far, without flushing.
   */
  CellarTable openTable(TableDescriptor descriptor, long createdAtWalId, List<RegionInfo> regions)
      throws IOException {
    List<FamilySettings> families = new ArrayList<>();
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      families.add(settingsOf(family));
    }
    TableRegions placement =
        TableRegions.of(tableDirectory(descriptor.name()), descriptor.name(), regions);
    List<Region> opened = new ArrayList<>();
    try {
      for (TableRegions.Place place : placement.places()) {
        opened.add(
            Region.open(place.directory(), place.walKey(), families, services, createdAtWalId));
        if (!placement.rooted()) {
          RegionInfoFile.ensure(storage, place.directory(), place.info());
        }
      }
    } catch (IOException | RuntimeException e) {
      opened.forEach(Region::abort);
      throw e;
    }
    CellarTable table =
        new CellarTable(
            descriptor, createdAtWalId, placement, new RegionRouter(placement.infos(), opened));
    tables.put(descriptor.name(), table);
    return table;
  }

  static FamilySettings settingsOf(ColumnFamilyDescriptor family) {
    HFileContext context =
        HFileContext.builder()
            .blockSize(family.blockSize())
            .encoding(family.dataBlockEncoding())
            .compression(family.compression())
            .bloomType(family.bloomFilter())
            .includesMvcc(true)
            .build();
    return new FamilySettings(
        family.nameBytes(),
        context,
        family.inMemory(),
        family.blockCache(),
        family.maxVersions(),
        family.ttlMillis(),
        family.minVersions());
  }

  /**
   * The directory of the table {@code name} ({@link TableDirectory#of}): a child of {@code
   * tables/}, or of its namespace's directory, checked to stay there whatever the name.
   *
   * @throws IllegalArgumentException if the name would resolve elsewhere
   */
  Path tableDirectory(String name) {
    return tableDirectory(directory, name);
  }

  /** The directory of the table {@code name} in the database {@code database}; see above. */
  static Path tableDirectory(Path database, String name) {
    return TableDirectory.of(database, name);
  }

  Storage storage() {
    return storage;
  }

  WriteAheadLog wal() {
    return wal;
  }

  Map<String, CellarTable> tables() {
    return tables;
  }

  @Override
  public Admin admin() {
    return admin;
  }

  /** The table named {@code name}. @throws TableNotFoundException if there is none */
  @Override
  public Table table(String name) {
    CellarTable table = tables.get(TableNames.lookupKey(name));
    if (table == null) {
      throw new TableNotFoundException(name);
    }
    return table;
  }

  /** The tracker of {@code cache}'s curve over its data-block lookups, as the settings ask. */
  private MissRatioCurveTracker curveOf(BlockCache cache) {
    CacheStats stats = cache.stats();
    return MissRatioCurveTracker.from(
            settings, BlockCacheFactory.dataCapacity(cache), () -> stats.snapshot().dataLookups())
        .orElse(null);
  }

  /** The block cache's miss-ratio curve, or null when there is no cache or it is turned off. */
  MissRatioCurveTracker missRatioCurve() {
    return curve;
  }

  /** The block cache, or null when the configuration disables it. */
  BlockCache blockCache() {
    return cache;
  }

  /** The pooled allocator blocks are read into. */
  BufAllocator allocator() {
    return allocator;
  }

  /** The MemStore chunk pool, or null when the MSLAB is disabled. */
  ChunkPool chunkPool() {
    return chunkPool;
  }

  /** The operation latencies and counters of every table, and the JVM's GC pauses. */
  EngineMetrics metrics() {
    return metrics;
  }

  /** What the metric sources and the info server read of this database. */
  private ObservedDatabase observed() {
    String host = settings.getString("hbase.regionserver.hostname", "localhost");
    String serverName =
        host + "," + settings.getInt("hbase.regionserver.port", 0) + "," + startMillis;
    return new ObservedDatabase(
        serverName,
        startMillis,
        directory.toString(),
        metrics,
        cache,
        curve,
        allocator,
        chunkPool,
        wal,
        () -> tables.values().stream().flatMap(table -> table.regions().stream()).toList());
  }

  /**
   * Publishes {@code source} with the database's own metrics, on JMX and the info server's
   * /prometheus, until the database closes: for a server's figures (its RPC metrics).
   */
  void publish(MetricSource source) {
    Observability current = observability;
    if (current != null) {
      current.publish(source);
    }
  }

  /** Tells the info server's UI the port a server over this database answers RPCs on. */
  void servesRpcOn(int port) {
    Observability current = observability;
    if (current != null) {
      current.servesRpcOn(port);
    }
  }

  /**
   * The address of the info server ({@code /jmx}, {@code /prometheus}, the web UI), if the
   * configuration started one ({@code hbase.regionserver.info.port}).
   */
  public Optional<InetSocketAddress> infoServerAddress() {
    Observability current = observability;
    return current == null ? Optional.empty() : current.infoAddress();
  }

  /** The internals Cellar's other modules reach through {@link dev.cellar.spi.EngineAccess}. */
  Engine engine() {
    return new CellarEngine(this);
  }

  /**
   * The figures of each region of the table {@code name} now, in key order, or an empty list if
   * there is no such table.
   */
  List<RegionStats> regionStats(String name) {
    CellarTable table = tables.get(TableNames.lookupKey(name));
    return table == null ? List.of() : table.regions().stream().map(Region::stats).toList();
  }

  /** The write-ahead log's counters. */
  WalStats walStats() {
    return wal.stats();
  }

  /**
   * Flushes and closes every table, stops the background threads, then closes the log, the cache
   * and the pools and releases the directory, each step whatever the earlier ones did; throws the
   * first failure, with the later ones suppressed.
   */
  @Override
  public void close() throws IOException {
    List<Exception> failures = new ArrayList<>();
    Observability published = observability;
    if (published != null) {
      run(failures, published::close);
    }
    for (CellarTable table :
        tables.values().stream().sorted(Comparator.comparing(CellarTable::name)).toList()) {
      for (Region region : table.regions()) {
        run(failures, region::close);
      }
    }
    tables.clear();
    run(failures, gcPauses::close);
    run(failures, () -> shutdown(flusher, FLUSHER_THREAD));
    run(failures, () -> shutdown(compactor, COMPACTION_THREAD));
    run(failures, wal::close);
    run(failures, walPlacement::close);
    if (cache != null) {
      run(failures, cache::shutdown);
    }
    if (chunkPool != null) {
      run(failures, chunkPool::close);
    }
    run(failures, allocator::close);
    run(failures, lock::close);
    if (location != null) {
      run(failures, location::close);
    }
    if (!failures.isEmpty()) {
      Exception first = failures.getFirst();
      IOException thrown =
          first instanceof IOException io
              ? io
              : new IOException("closing " + directory + " failed: " + first, first);
      failures.subList(1, failures.size()).forEach(thrown::addSuppressed);
      throw thrown;
    }
  }

  /** A step of {@link #close()}. */
  private interface Step {
    void run() throws Exception;
  }

  private static void run(List<Exception> failures, Step step) {
    try {
      step.run();
    } catch (Exception e) {
      failures.add(e);
    }
  }

  /**
   * Stops {@code executor}, waiting up to {@value #SHUTDOWN_SECONDS} s for its work; then
   * interrupts it and reports the overrun.
   */
  private static void shutdown(ExecutorService executor, String thread) throws IOException {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(SHUTDOWN_SECONDS, TimeUnit.SECONDS)) {
        executor.shutdownNow();
        throw new IOException(
            "the "
                + thread
                + " thread did not finish its work in "
                + SHUTDOWN_SECONDS
                + " s; it was interrupted");
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
