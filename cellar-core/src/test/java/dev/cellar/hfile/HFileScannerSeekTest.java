package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.cache.bucket.BucketCache;
import dev.cellar.cache.tiered.BlockCacheFactory;
import dev.cellar.cache.tiered.CombinedBlockCache;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.config.Settings;
import dev.cellar.hfile.encoding.Encodings;
import dev.cellar.hfile.encoding.IndexArrays;
import dev.cellar.hfile.encoding.SeekIndex;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link HFileScanner#seekTo(Cell)}, {@link HFileScanner#reseekTo} and {@link
 * HFileScanner#seekBefore} against a sorted-list oracle, on every encoding, with data blocks read
 * uncached, from an L1 and from an off-heap L2: wherever the in-block search starts (the block's
 * first cell, the current cell, or an entry of the block's seek index) and whether or not a reseek
 * skips the index walk, the scanner lands where a linear seek lands. Files have small blocks and a
 * multi-level index, and random keys, tags and sequence ids.
 */
@ExtendWith(TestSeedExtension.class)
class HFileScannerSeekTest {

  private static final int CELLS = 3000;
  private static final int OPERATIONS = 3000;
  private static final byte[] FAMILY = {'f'};

  /**
   * Where the scanner's data blocks come from: read directly, an L1, an off-heap L2, read through
   * an L1 that keeps only index and bloom blocks (every data block left out), or through an L1 that
   * takes a data block at one load in three (a block is left out, perhaps sought with the sparse
   * index its file keeps, then cached and sought with that index until it has its own).
   */
  enum Source {
    UNCACHED,
    L1,
    L2_OFFHEAP,
    LEFT_OUT,
    MIXED
  }

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);
  private final List<BlockCache> caches = new ArrayList<>();

  /** Whether the LEFT_OUT source's cache takes data blocks after all (a test flips it). */
  private final AtomicBoolean cacheLeftOutData = new AtomicBoolean();

  @AfterEach
  void shutDown() {
    caches.forEach(BlockCache::shutdown);
    assertEquals(0, allocator.stats().usedBufferCount(), "every pooled buffer came back");
    allocator.close();
  }

  static Stream<Arguments> encodingsAndSources() {
    List<Arguments> arguments = new ArrayList<>();
    for (DataBlockEncoding encoding : DataBlockEncoding.values()) {
      for (Source source : Source.values()) {
        arguments.add(Arguments.of(encoding, source));
      }
    }
    return arguments.stream();
  }

  /** As {@link #encodingsAndSources()}, without the source that caches some blocks only. */
  static Stream<Arguments> encodingsAndSingleSources() {
    return encodingsAndSources().filter(arguments -> arguments.get()[1] != Source.MIXED);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("encodingsAndSources")
  void seeksLandWhereTheOracleSays(DataBlockEncoding encoding, Source source, TestSeed seed)
      throws Exception {
    Random random = new Random(seed.value());
    HFileContext context = randomContext(random, encoding);
    List<KeyValue> cells = cells(random, context);
    Path path = write(context, cells);
    AtomicInteger loads = new AtomicInteger();
    try (HFileReader reader = open(path, source, loads);
        HFileScanner scanner = reader.scanner(true)) {
      warm(reader);
      Oracle oracle = new Oracle(cells);
      for (int operation = 0; operation < OPERATIONS; operation++) {
        String what = "operation " + operation;
        switch (random.nextInt(8)) {
          case 0, 1, 2 -> oracle.checkSeekTo(scanner, probe(random, cells), what);
          case 3, 4, 5 -> oracle.checkReseek(scanner, random, what);
          case 6 -> oracle.checkSeekBefore(scanner, probe(random, cells), what);
          default -> oracle.checkNext(scanner, random.nextInt(4), what);
        }
      }
    }
  }

  /**
   * Four threads seek and reseek the same cached blocks (or blocks left out, whose indexes the file
   * keeps) at once, each with its own scanner, while the blocks' indexes are being built and
   * published: every seek lands where the oracle says.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "NONE, L1",
    "NONE, L2_OFFHEAP",
    "PREFIX, L1",
    "FAST_DIFF, L1",
    "FAST_DIFF, L2_OFFHEAP",
    "NONE, LEFT_OUT",
    "DIFF, LEFT_OUT",
    "FAST_DIFF, LEFT_OUT",
    "FAST_DIFF, MIXED"
  })
  void concurrentSeeksShareTheBlocksIndexes(
      DataBlockEncoding encoding, Source source, TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    HFileContext context = randomContext(random, encoding);
    List<KeyValue> cells = cells(random, context);
    Path path = write(context, cells);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (HFileReader reader = open(path, source, null)) {
      warm(reader);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Random threadRandom = new Random(seed.value() + t);
        threads.add(
            Thread.ofPlatform()
                .name("seeker-" + t)
                .start(
                    () -> {
                      try (HFileScanner scanner = reader.scanner(true)) {
                        Oracle oracle = new Oracle(cells);
                        for (int operation = 0; operation < OPERATIONS; operation++) {
                          if (threadRandom.nextBoolean()) {
                            oracle.checkSeekTo(
                                scanner, probe(threadRandom, cells), "operation " + operation);
                          } else {
                            oracle.checkReseek(scanner, threadRandom, "operation " + operation);
                          }
                        }
                      } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                      }
                    }));
      }
      for (Thread thread : threads) {
        thread.join();
      }
    }
    if (failure.get() != null) {
      throw new AssertionError(encoding + " " + source + " failed", failure.get());
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("encodingsAndSources")
  void aReseekInsideTheCurrentBlockLoadsNothing(
      DataBlockEncoding encoding, Source source, TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    HFileContext context = randomContext(random, encoding);
    List<KeyValue> cells = cells(random, context);
    Path path = write(context, cells);
    AtomicInteger loads = new AtomicInteger();
    try (HFileReader reader = open(path, source, loads);
        HFileScanner scanner = reader.scanner(true)) {
      long[] blockOf = blockOffsets(scanner, cells.size());
      int reseeks = 0;
      for (int i = 0; i < cells.size(); i += 1 + random.nextInt(20)) {
        int j = i + random.nextInt(10);
        if (j >= cells.size() || blockOf[j] != blockOf[i]) {
          continue;
        }
        assertEquals(HFileScanner.EXACT, scanner.seekTo(cells.get(i)));
        int before = loads.get();
        assertEquals(HFileScanner.EXACT, scanner.reseekTo(cells.get(j)));
        assertEquals(
            before,
            loads.get(),
            "reseek from #" + i + " to #" + j + " in the same block loaded a block");
        assertSame(cells.get(j), scanner.current(), "reseek to #" + j);
        reseeks++;
      }
      assertTrue(reseeks > 10, "only " + reseeks + " reseeks inside a block");
    }
  }

  /**
   * Seeks and reseeks into cached blocks, once indexed, allocate nothing: not the index walk's
   * next-block key, not the in-block search, not the reseek's shortcut.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = DataBlockEncoding.class,
      names = {"NONE", "PREFIX", "DIFF", "FAST_DIFF"})
  void cachedSeeksAndReseeksAllocateNothing(DataBlockEncoding encoding) throws Exception {
    HFileContext context =
        HFileContext.builder().encoding(encoding).blockSize(8192).includesTags(false).build();
    List<KeyValue> cells = cells(new Random(11), context);
    Path path = write(context, cells);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (HFileReader reader = open(path, Source.L1, null);
        HFileScanner scanner = reader.scanner(true)) {
      warm(reader);
      long checksum = seekAndReseek(scanner, cells, 20_000);
      long before = threads.getCurrentThreadAllocatedBytes();
      int rounds = 20_000;
      checksum += seekAndReseek(scanner, cells, rounds);
      double perRound = (threads.getCurrentThreadAllocatedBytes() - before) / (double) rounds;
      assertTrue(
          perRound < 1,
          encoding
              + ": "
              + perRound
              + " heap bytes per seek and three "
              + "reseeks (checksum "
              + checksum
              + ")");
    }
  }

  /** Seeks to cells spread over the file, each followed by three reseeks a little further. */
  private static long seekAndReseek(HFileScanner scanner, List<KeyValue> cells, int rounds)
      throws IOException {
    long checksum = 0;
    for (int round = 0; round < rounds; round++) {
      int at = (int) ((round * 7919L) % (cells.size() - 3));
      checksum += scanner.seekTo(cells.get(at));
      for (int step = 1; step <= 3; step++) {
        checksum += scanner.reseekTo(cells.get(at + step));
        checksum += scanner.current().valueLength();
      }
    }
    return checksum;
  }

  /**
   * A block object is indexed by its third seek, and then seeks binary-search the index: every
   * reader of a cached block shares it; an uncached block read anew for each seek never gets one.
   * The block's heap size, which a cache accounts once, already counts the index. A block the cache
   * leaves out gets a sparse index kept by the file at its second seek.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("encodingsAndSingleSources")
  void theThirdSeekIntoABlockObjectIndexesIt(DataBlockEncoding encoding, Source source)
      throws Exception {
    HFileContext context =
        HFileContext.builder().encoding(encoding).blockSize(8192).includesTags(false).build();
    List<KeyValue> cells = cells(new Random(7), context);
    Path path = write(context, cells);
    boolean indexable = encoding != DataBlockEncoding.ROW_INDEX_V1;
    try (HFileReader reader = open(path, source, new AtomicInteger())) {
      warm(reader);
      KeyValue key = cells.get(cells.size() / 2);
      for (int seek = 1; seek <= 4; seek++) {
        try (HFileScanner scanner = reader.scanner(true)) {
          assertEquals(HFileScanner.EXACT, scanner.seekTo(key));
          SeekIndex index = scanner.currentBlock().seekIndex();
          boolean cached = source == Source.L1 || source == Source.L2_OFFHEAP;
          assertEquals(
              indexable && cached && seek >= 3, index != null, "seek " + seek + ": " + index);
          SeekIndex fileKept = reader.leftOutSeekIndexes().find(scanner.currentBlock().offset());
          assertEquals(
              indexable && source == Source.LEFT_OUT && seek >= 2,
              fileKept != null,
              "seek " + seek + ": " + fileKept);
          if (fileKept != null) {
            int payload = scanner.currentBlock().payloadSize();
            assertTrue(fileKept.count() > 0, fileKept.toString());
            assertTrue(
                fileKept.heapSize()
                    <= Encodings.maxSeekIndexHeapSize(DataBlockEncoding.NONE, payload) + 256,
                "a left-out block's index is sparse: "
                    + fileKept
                    + ", "
                    + fileKept.heapSize()
                    + " bytes for "
                    + payload);
          }
          if (index != null) {
            HFileBlock block = scanner.currentBlock();
            assertTrue(
                block.heapSize() >= block.buf().capacity() + index.heapSize(),
                "the block's size counts its index: " + block.heapSize());
            assertTrue(index.count() > 0, index.toString());
            assertTrue(
                index.heapSize()
                    <= Encodings.maxSeekIndexHeapSize(
                        encoding, scanner.currentBlock().payloadSize()),
                index.toString());
          }
        }
      }
    }
  }

  /**
   * A block left out gets its file's sparse index at its second seek; once the cache takes it, its
   * seeks use that index and its own index is built at its eighth seek, not its third.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = DataBlockEncoding.class,
      names = {"NONE", "PREFIX", "DIFF", "FAST_DIFF"})
  void aCachedBlockSoughtWithItsFilesSparseIndexBuildsItsOwnLater(DataBlockEncoding encoding)
      throws Exception {
    HFileContext context =
        HFileContext.builder().encoding(encoding).blockSize(8192).includesTags(false).build();
    List<KeyValue> cells = cells(new Random(11), context);
    Path path = write(context, cells);
    try (HFileReader reader = open(path, Source.LEFT_OUT, null)) {
      KeyValue key = cells.get(cells.size() / 3);
      for (int seek = 1; seek <= 2; seek++) {
        try (HFileScanner scanner = reader.scanner(true)) {
          assertEquals(HFileScanner.EXACT, scanner.seekTo(key));
          assertTrue(scanner.currentBlock().leftOut());
        }
      }
      long offset;
      try (HFileScanner scanner = reader.scanner(true)) {
        assertEquals(HFileScanner.EXACT, scanner.seekTo(key));
        offset = scanner.currentBlock().offset();
      }
      SeekIndex sparse = reader.leftOutSeekIndexes().find(offset);
      assertNotNull(sparse, "the second seek left the file an index");
      cacheLeftOutData.set(true);
      for (int seek = 1; seek <= 9; seek++) {
        try (HFileScanner scanner = reader.scanner(true)) {
          assertEquals(HFileScanner.EXACT, scanner.seekTo(key), "cached seek " + seek);
          assertSame(key, scanner.current(), "cached seek " + seek);
          HFileBlock block = scanner.currentBlock();
          assertFalse(block.leftOut(), "cached seek " + seek);
          assertEquals(
              seek >= SeekIndexSlot.BUILDING_SEEK_AFTER_SPARSE,
              block.seekIndex() != null,
              "cached seek " + seek + ": " + block.seekIndex());
        }
      }
      assertTrue(sparse == reader.leftOutSeekIndexes().find(offset), "the file keeps its index");
    }
  }

  /**
   * A cached NONE block's seek index goes back to the index arrays when the block's memory is
   * freed, not before: at the last reader's release after the cache evicted the block, or at the
   * eviction itself when no reader holds it (the L2's entry drops the last reference on its own
   * count); and the next index built takes the array again.
   */
  @ParameterizedTest(name = "{0}, held over the eviction: {1}")
  @CsvSource({"L1, true", "L1, false", "L2_OFFHEAP, true", "L2_OFFHEAP, false"})
  void aBlockHandsItsSeekIndexBackWhenItsMemoryIsFreed(Source source, boolean held)
      throws Exception {
    HFileContext context =
        HFileContext.builder()
            .encoding(DataBlockEncoding.NONE)
            .blockSize(8192)
            .includesTags(false)
            .build();
    List<KeyValue> cells = cells(new Random(11), context);
    Path path = write(context, cells);
    try (HFileReader reader = open(path, source, null)) {
      BlockCache cache = caches.get(caches.size() - 1);
      KeyValue key = cells.get(cells.size() / 3);
      HFileBlock indexed = seekUntilIndexed(reader, key);
      long kept = IndexArrays.keptBytes();
      if (!held) {
        indexed.release();
        assertEquals(kept, IndexArrays.keptBytes(), "the cache still holds the block");
      }
      assertTrue(cache.evictBlocksByHfileName(path.toString()) > 0);
      if (held) {
        assertEquals(kept, IndexArrays.keptBytes(), "the evicted block is still held");
        assertTrue(indexed.release(), "the last reference");
      }
      long handedBack = IndexArrays.keptBytes() - kept;
      assertTrue(handedBack > 0, "the index array came back: " + handedBack + " bytes");
      seekUntilIndexed(reader, key).release();
      assertTrue(
          IndexArrays.keptBytes() < kept + handedBack, "the next index built took an array back");
    }
  }

  /** Seeks to {@code key} until its block object is indexed; returns it with a reference. */
  private static HFileBlock seekUntilIndexed(HFileReader reader, KeyValue key) throws IOException {
    for (int seek = 1; seek <= 6; seek++) {
      try (HFileScanner scanner = reader.scanner(true)) {
        assertEquals(HFileScanner.EXACT, scanner.seekTo(key));
        if (scanner.currentBlock().seekIndex() != null) {
          return scanner.currentBlock().retain();
        }
      }
    }
    throw new AssertionError("no index after six seeks into " + key);
  }

  /**
   * Data blocks whose payload bytes were flipped after their checksums passed (the same bytes on
   * every read of a block, cached or not): indexing them and seeking, reseeking and stepping
   * through them raise {@link CorruptHFileException} or succeed, never anything else.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("encodingsAndSources")
  void malformedBlocksRaiseOnlyCorruptHFileException(
      DataBlockEncoding encoding, Source source, TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    HFileContext context = randomContext(random, encoding);
    List<KeyValue> cells = cells(random, context);
    Path path = write(context, cells);
    int corrupt = 0;
    try (HFileReader reader = open(path, source, null, seed.value());
        HFileScanner scanner = reader.scanner(true)) {
      Oracle oracle = new Oracle(cells);
      for (int operation = 0; operation < OPERATIONS; operation++) {
        try {
          switch (random.nextInt(4)) {
            case 0 -> scanner.seekTo(probe(random, cells));
            case 1 -> scanner.seekBefore(probe(random, cells));
            case 2 -> {
              if (scanner.isValid()) {
                int at = Math.max(0, oracle.floor(scanner.current(), false));
                scanner.reseekTo(cells.get(Math.min(cells.size() - 1, at + random.nextInt(5))));
              }
            }
            default -> scanner.next();
          }
          if (scanner.isValid()) {
            KeyValue.copyOf(scanner.current());
          }
        } catch (CorruptHFileException expected) {
          corrupt++;
        } catch (Throwable unexpected) {
          throw new AssertionError(
              encoding + " " + source + ", operation " + operation + " raised " + unexpected,
              unexpected);
        }
      }
    }
    assertTrue(corrupt > 0, "no corruption detected");
  }

  private Path write(HFileContext context, List<KeyValue> cells) throws IOException {
    Path path = dir.resolve("seek.hfile");
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (KeyValue cell : cells) {
        writer.append(cell);
      }
    }
    return path;
  }

  private HFileReader open(Path path, Source source, AtomicInteger loads) throws IOException {
    return open(path, source, loads, 0);
  }

  /**
   * Opens the file behind the source's cache, counting loads into {@code loads} (if not null) and,
   * with a {@code corruptionSeed} other than 0, flipping bytes in every data block's payload as
   * read from the file.
   */
  private HFileReader open(Path path, Source source, AtomicInteger loads, long corruptionSeed)
      throws IOException {
    BlockCache cache =
        switch (source) {
          case UNCACHED -> null;
          case L1, LEFT_OUT, MIXED ->
              new LruBlockCache(
                  LruBlockCacheConfig.from(
                      Settings.of(Map.of(LruBlockCacheConfig.CACHE_MEMORY_SIZE_KEY, "64m"))),
                  Runnable::run);
          case L2_OFFHEAP ->
              BlockCacheFactory.create(
                      Settings.of(
                          Map.of(
                              "hfile.block.cache.memory.size",
                              "16m",
                              "hbase.bucketcache.ioengine",
                              "offheap",
                              "hbase.bucketcache.size",
                              "64")),
                      allocator)
                  .orElseThrow();
        };
    if (cache != null) {
      caches.add(cache);
    }
    AtomicInteger dataLoads = new AtomicInteger();
    return HFileReader.open(
        path,
        allocator,
        direct -> {
          BlockLoader file = corruptionSeed == 0 ? direct : corrupting(direct, corruptionSeed);
          BlockLoader loader =
              cache == null ? file : new CachingBlockLoader(cache, file, path.toString(), false);
          return (offset, size, type, cacheBlock) -> {
            if (loads != null) {
              loads.incrementAndGet();
            }
            boolean cacheData =
                switch (source) {
                  case LEFT_OUT -> cacheLeftOutData.get();
                  case MIXED -> dataLoads.incrementAndGet() % 3 == 0;
                  default -> true;
                };
            return loader.loadBlock(offset, size, type, cacheBlock && cacheData);
          };
        });
  }

  /**
   * Flips one to three payload bytes of every data block, the same ones on every read, and the
   * payload's first byte in the first data block and in a quarter of the others.
   */
  private static BlockLoader corrupting(BlockLoader direct, long seed) {
    return (offset, size, type, cacheBlock) -> {
      HFileBlock block = direct.loadBlock(offset, size, type, cacheBlock);
      if (!block.type().isData()) {
        return block;
      }
      try {
        byte[] bytes = block.buf().getBytes(0, block.buf().capacity());
        Random random = new Random(seed ^ offset);
        for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
          int at = BlockHeader.SIZE + random.nextInt(block.payloadSize());
          bytes[at] ^= (byte) (1 + random.nextInt(255));
        }
        if (offset == 0 || random.nextInt(4) == 0) {
          // Flips that land in values go unnoticed; this one cannot: the high byte of the first
          // cell's key length (NONE) or of the encoding id.
          bytes[BlockHeader.SIZE] ^= 0x40;
        }
        return new HFileBlock(
            block.header(), block.offset(), Buf.wrap(bytes), block.nextBlockOnDiskSize());
      } finally {
        block.release();
      }
    };
  }

  /** Scans the file once so that its blocks are cached; waits for an L2's writes. */
  private void warm(HFileReader reader) throws Exception {
    try (HFileScanner scanner = reader.scanner(true)) {
      for (boolean more = scanner.seekTo(); more; more = scanner.next()) {
        scanner.current();
      }
    }
    for (BlockCache cache : caches) {
      if (cache instanceof CombinedBlockCache combined) {
        assertTrue(((BucketCache) combined.l2()).awaitQueuedWrites(10_000));
      }
    }
  }

  /** The offset of the block each cell lies in, from a scan. */
  private static long[] blockOffsets(HFileScanner scanner, int cells) throws IOException {
    long[] offsets = new long[cells];
    int i = 0;
    for (boolean more = scanner.seekTo(); more; more = scanner.next()) {
      offsets[i++] = scanner.currentBlock().offset();
    }
    assertEquals(cells, i);
    return offsets;
  }

  private static HFileContext randomContext(Random random, DataBlockEncoding encoding) {
    boolean tags = random.nextInt(3) == 0;
    return HFileContext.builder()
        .encoding(encoding)
        .blockSize(new int[] {512, 2048, 8192}[random.nextInt(3)])
        .indexBlockMaxSize(256)
        .compression(random.nextBoolean() ? Compression.NONE : Compression.LZ4)
        .includesTags(tags)
        .compressTags(tags && random.nextBoolean())
        .includesMvcc(random.nextInt(4) != 0)
        .build();
  }

  /**
   * Sorted cells with distinct keys: rows sharing prefixes, of lengths on both sides of 256, one to
   * three qualifiers per row, versions of several timestamps and types, values of 0 to 300 bytes;
   * tags and sequence ids when the file keeps them.
   */
  private static List<KeyValue> cells(Random random, HFileContext context) {
    boolean withTags = context.includesTags();
    TreeSet<KeyValue> sorted = new TreeSet<>(CellComparator.IGNORING_SEQUENCE_ID);
    byte[] previousRow = {'m'};
    CellType[] types = {
      CellType.PUT,
      CellType.PUT,
      CellType.PUT,
      CellType.DELETE,
      CellType.DELETE_COLUMN,
      CellType.DELETE_FAMILY
    };
    while (sorted.size() < CELLS) {
      byte[] row = random.nextInt(3) == 0 ? previousRow : row(random, previousRow);
      previousRow = row;
      int qualifiers = 1 + random.nextInt(3);
      for (int q = 0; q < qualifiers; q++) {
        byte[] qualifier = ("q" + random.nextInt(5)).getBytes();
        int versions = 1 + random.nextInt(3);
        for (int v = 0; v < versions; v++) {
          byte[] value = new byte[random.nextInt(5) == 0 ? 0 : random.nextInt(300)];
          random.nextBytes(value);
          List<Tag> tags =
              withTags && random.nextBoolean()
                  ? List.of(new Tag((byte) (1 + random.nextInt(3)), new byte[] {(byte) v}))
                  : List.of();
          sorted.add(
              KeyValue.create(
                      row,
                      FAMILY,
                      qualifier,
                      1000 + random.nextInt(50),
                      types[random.nextInt(types.length)],
                      value,
                      tags)
                  .withSequenceId(
                      context.includesMvcc() && random.nextBoolean()
                          ? random.nextInt(1 << 20)
                          : 0));
        }
      }
    }
    return new ArrayList<>(sorted);
  }

  private static byte[] row(Random random, byte[] previous) {
    int shared = random.nextInt(previous.length + 1);
    int length = random.nextInt(20) == 0 ? 250 + random.nextInt(10) : 1 + random.nextInt(12);
    byte[] row = Arrays.copyOf(previous, Math.max(length, shared));
    for (int i = shared; i < row.length; i++) {
      row[i] = (byte) ('a' + random.nextInt(4));
    }
    return row;
  }

  /** A key of a random cell, next to one, or outside the file on either side. */
  private static KeyValue probe(Random random, List<KeyValue> cells) {
    return variant(random, cells.get(random.nextInt(cells.size())), cells);
  }

  private static KeyValue variant(Random random, KeyValue cell, List<KeyValue> cells) {
    byte[] row = cell.rowArray();
    byte[] qualifier = cell.qualifierArray();
    return switch (random.nextInt(10)) {
      case 0, 1, 2 -> cell;
      case 3 -> KeyValue.firstOnRow(row);
      case 4 -> KeyValue.lastOnRow(row);
      case 5 -> KeyValue.firstOnColumn(row, FAMILY, qualifier);
      case 6 -> KeyValue.lastOnColumn(row, FAMILY, qualifier);
      case 7 ->
          KeyValue.create(
              row,
              FAMILY,
              qualifier,
              cell.timestamp() + (random.nextBoolean() ? 1 : -1),
              cell.type(),
              new byte[0]);
      case 8 -> KeyValue.firstOnRow(Arrays.copyOf(row, row.length + 1));
      default ->
          random.nextBoolean()
              ? KeyValue.firstOnRow(new byte[0])
              : KeyValue.lastOnRow(filled(cells.getLast().rowLength() + 1));
    };
  }

  private static byte[] filled(int length) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) 0xFF);
    return bytes;
  }

  private static void assertSame(KeyValue expected, Cell actual, String message) {
    assertEquals(
        0,
        CellComparator.compareKeyIgnoringSequenceId(expected, actual),
        () -> message + ": expected " + expected + ", found " + actual);
    assertEquals(expected.sequenceId(), actual.sequenceId(), message);
    assertTrue(Arrays.equals(expected.valueArray(), actual.valueArray()), message + ": value");
    assertTrue(Arrays.equals(expected.tagsArray(), actual.tagsArray()), message + ": tags");
  }

  /** The cells in order, and where the scanner should be. */
  private static final class Oracle {

    private final List<KeyValue> cells;

    /** The index of the scanner's current cell, or -1 when it is not positioned. */
    private int position = -1;

    Oracle(List<KeyValue> cells) {
      this.cells = cells;
    }

    /** The index of the last cell not after {@code key} (strictly before it), or -1. */
    int floor(Cell key, boolean strictly) {
      int low = 0;
      int high = cells.size() - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        int diff = CellComparator.compareKeyIgnoringSequenceId(key, cells.get(mid));
        if (diff > 0 || (diff == 0 && !strictly)) {
          low = mid + 1;
        } else {
          high = mid - 1;
        }
      }
      return high;
    }

    void checkSeekTo(HFileScanner scanner, KeyValue key, String what) throws IOException {
      check(scanner, key, scanner.seekTo(key), what + ": seekTo " + key);
    }

    /** Reseeks to a key not before the current cell: often close ahead, sometimes far. */
    void checkReseek(HFileScanner scanner, Random random, String what) throws IOException {
      if (position < 0) {
        checkSeekTo(scanner, cells.get(random.nextInt(cells.size())), what);
        return;
      }
      int target =
          random.nextInt(4) == 0
              ? position + random.nextInt(cells.size() - position)
              : Math.min(cells.size() - 1, position + random.nextInt(4));
      KeyValue key = variant(random, cells.get(target), cells);
      if (CellComparator.compareKeyIgnoringSequenceId(key, cells.get(position)) < 0) {
        key = cells.get(target);
      }
      check(scanner, key, scanner.reseekTo(key), what + ": reseekTo " + key + " from #" + position);
    }

    private void check(HFileScanner scanner, KeyValue key, int result, String what) {
      int floor = floor(key, false);
      Supplier<String> message = () -> what + " gave " + result;
      switch (result) {
        case HFileScanner.BEFORE_FILE -> {
          assertEquals(-1, floor, message.get());
          assertFalse(scanner.isValid(), message.get());
          position = -1;
          return;
        }
        case HFileScanner.AFTER_KEY -> {
          assertTrue(floor >= 0 && floor + 1 < cells.size(), message.get());
          position = floor + 1;
        }
        case HFileScanner.EXACT -> {
          assertTrue(floor >= 0, message.get());
          assertEquals(
              0, CellComparator.compareKeyIgnoringSequenceId(key, cells.get(floor)), message.get());
          position = floor;
        }
        case HFileScanner.BEFORE_KEY -> {
          assertTrue(floor >= 0, message.get());
          assertTrue(
              CellComparator.compareKeyIgnoringSequenceId(key, cells.get(floor)) > 0,
              message.get());
          position = floor;
        }
        default -> throw new AssertionError(message.get());
      }
      assertTrue(scanner.isValid(), message.get());
      assertSame(cells.get(position), scanner.current(), message.get());
    }

    void checkSeekBefore(HFileScanner scanner, KeyValue key, String what) throws IOException {
      int expected = floor(key, true);
      boolean found = scanner.seekBefore(key);
      String message = what + ": seekBefore " + key;
      assertEquals(expected >= 0, found, message);
      position = expected;
      if (found) {
        assertSame(cells.get(expected), scanner.current(), message);
      }
    }

    void checkNext(HFileScanner scanner, int steps, String what) throws IOException {
      for (int i = 0; i < steps && position >= 0; i++) {
        boolean more = scanner.next();
        position = position + 1 < cells.size() ? position + 1 : -1;
        assertEquals(position >= 0, more, what + ": next");
        if (more) {
          assertSame(cells.get(position), scanner.current(), what + ": next");
        }
      }
    }
  }
}
