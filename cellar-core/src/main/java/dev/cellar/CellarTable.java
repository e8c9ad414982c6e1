package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.ValueCondition;
import dev.cellar.metrics.Operation;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowStream;
import dev.cellar.store.Region;
import dev.cellar.store.RowMutation;
import dev.cellar.store.ScanRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * {@link Table} over a table's {@link Region}s: turns the client types into the regions' cells and
 * scan requests, each row's going to the region that holds it ({@link RegionRouter}), and the
 * regions' rows into {@link Result}s that hold their cells' memory. A batch spanning regions is one
 * write per region, in key order, as with HBase: all of a region's part or none of it, not all or
 * none of the batch. Stateless beyond the regions, so thread-safe as they are.
 */
final class CellarTable implements Table {

  /** Replaced by an alter once the new descriptor is durable. */
  private volatile TableDescriptor descriptor;

  /** The log id when the table was created, which its descriptor file keeps. */
  private final long createdAtWalId;

  /** Where the regions live: kept so that an alter rewrites the descriptor with them. */
  private final TableRegions placement;

  private final RegionRouter router;

  /**
   * Each thread's reader behind {@link #get(Get)}: it reads into its own row holder, from which the
   * result takes its cells and pins, and keeps nothing pinned between calls.
   */
  private final ThreadLocal<PointGetter> getters;

  CellarTable(
      TableDescriptor descriptor,
      long createdAtWalId,
      TableRegions placement,
      RegionRouter router) {
    this.descriptor = descriptor;
    this.createdAtWalId = createdAtWalId;
    this.placement = placement;
    this.router = router;
    this.getters =
        ThreadLocal.withInitial(() -> new PointGetter(new RowReader(TablePointReads.of(router))));
  }

  /** A thread's reader and row holder for {@link #get(Get)}. */
  private record PointGetter(RowReader reader, CollectedRow row) {
    PointGetter(RowReader reader) {
      this(reader, new CollectedRow());
    }
  }

  @Override
  public String name() {
    return descriptor.name();
  }

  TableDescriptor descriptor() {
    return descriptor;
  }

  long createdAtWalId() {
    return createdAtWalId;
  }

  /** Takes the descriptor an alter wrote. */
  void described(TableDescriptor changed) {
    descriptor = changed;
  }

  /** The table's regions, in key order. */
  List<Region> regions() {
    return router.all();
  }

  /** The regions' identities, in key order. */
  List<RegionInfo> regionInfos() {
    return router.infos();
  }

  /** Where the regions live. */
  TableRegions placement() {
    return placement;
  }

  @Override
  public void put(Put put) throws IOException {
    mutate(put);
  }

  /** One write of the whole list: see {@link #batch}. */
  @Override
  public void put(List<Put> puts) throws IOException {
    mutate(puts);
  }

  @Override
  public void delete(Delete delete) throws IOException {
    mutate(delete);
  }

  /**
   * Applies the mutations as one write of the region: one log entry and at most one log sync, with
   * the strongest durability among them, and all visible to reads at once (see {@link Region}).
   */
  @Override
  public void batch(List<? extends Mutation> mutations) throws IOException {
    mutate(mutations);
  }

  private void mutate(Mutation mutation) throws IOException {
    router
        .regionFor(mutation.rowUnsafe())
        .mutate(List.of(rowMutation(mutation)), System.currentTimeMillis());
  }

  private void mutate(List<? extends Mutation> mutations) throws IOException {
    long now = System.currentTimeMillis();
    if (router.size() == 1) {
      List<RowMutation> batch = new ArrayList<>(mutations.size());
      for (Mutation mutation : mutations) {
        batch.add(rowMutation(mutation));
      }
      router.region(0).mutate(batch, now);
      return;
    }
    TreeMap<Integer, List<RowMutation>> byRegion = new TreeMap<>();
    for (Mutation mutation : mutations) {
      byRegion
          .computeIfAbsent(router.indexOf(mutation.rowUnsafe()), index -> new ArrayList<>())
          .add(rowMutation(mutation));
    }
    for (Map.Entry<Integer, List<RowMutation>> part : byRegion.entrySet()) {
      router.region(part.getKey()).mutate(part.getValue(), now);
    }
  }

  private RowMutation rowMutation(Mutation mutation) {
    return new RowMutation(
        mutation.rowUnsafe(), cellsOf(mutation), mutation.durability().resolved());
  }

  /** The mutation's cells; a Delete without markers deletes every family of the row. */
  private List<KeyValue> cellsOf(Mutation mutation) {
    if (mutation instanceof Delete delete && delete.isEmpty()) {
      Delete whole = new Delete(delete.rowUnsafe());
      for (String family : router.region(0).familyNames()) {
        whole.addFamily(family.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      return whole.cells();
    }
    if (mutation.isEmpty()) {
      throw new IllegalArgumentException("a Put needs at least one column");
    }
    return mutation.cellsUnsafe();
  }

  @Override
  public boolean checkAndMutate(
      byte[] family, byte[] qualifier, CompareOperator operator, byte[] value, Mutation mutation)
      throws IOException {
    return checkAndMutate(
        family, qualifier, current -> matches(operator, value, current), mutation);
  }

  @Override
  public boolean checkAndMutateWithComparator(
      byte[] family,
      byte[] qualifier,
      CompareOperator operator,
      ByteArrayComparable comparator,
      Mutation mutation)
      throws IOException {
    if (operator == CompareOperator.NO_OP) {
      throw new IllegalArgumentException("a check-and-mutate cannot compare with NO_OP");
    }
    return checkAndMutate(
        family,
        qualifier,
        current -> ValueCondition.holds(operator, comparator, current),
        mutation);
  }

  /** Applies {@code mutation} in its row's region if {@code check} accepts the column's value. */
  private boolean checkAndMutate(
      byte[] family, byte[] qualifier, Predicate<byte[]> check, Mutation mutation)
      throws IOException {
    return router
        .regionFor(mutation.rowUnsafe())
        .checkAndMutate(
            mutation.rowUnsafe(),
            family,
            qualifier,
            check,
            cellsOf(mutation),
            mutation.durability().resolved(),
            System.currentTimeMillis());
  }

  /** HBase's check: {@code value operator current}; a null value tests for absence. */
  private static boolean matches(CompareOperator operator, byte[] value, byte[] current) {
    if (value == null || current == null) {
      boolean bothAbsent = value == null && current == null;
      return switch (operator) {
        case EQUAL -> bothAbsent;
        case NOT_EQUAL -> !bothAbsent;
        default -> false;
      };
    }
    int order = Bytes.compare(value, current);
    return switch (operator) {
      case LESS -> order < 0;
      case LESS_OR_EQUAL -> order <= 0;
      case EQUAL -> order == 0;
      case NOT_EQUAL -> order != 0;
      case GREATER_OR_EQUAL -> order >= 0;
      case GREATER -> order > 0;
      case NO_OP -> true;
    };
  }

  @Override
  public Result get(Get get) throws IOException {
    PointGetter getter = getters.get();
    CollectedRow row = getter.row();
    try {
      getter.reader().readInto(get, row);
      if (row.size() == 0) {
        return Result.empty();
      }
      return Result.detach(row);
    } finally {
      row.clear();
    }
  }

  @Override
  public RowReader rowReader() {
    return new RowReader(TablePointReads.of(router));
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    long start = router.region(0).metrics().start(Operation.MULTI_GET);
    Result[] results = new Result[gets.size()];
    try {
      for (int i = 0; i < results.length; i++) {
        results[i] = get(gets.get(i));
      }
      router.region(0).metrics().recordSince(Operation.MULTI_GET, start);
    } catch (IOException | RuntimeException e) {
      for (Result result : results) {
        if (result != null) {
          result.close();
        }
      }
      throw e;
    }
    return results;
  }

  @Override
  public ResultScanner scanner(Scan scan) throws IOException {
    return new RegionResultScanner(rows(request(scan)), scan.limit());
  }

  @Override
  public RowScanner rowScanner(Scan scan) throws IOException {
    return new RowScanner(rows(request(scan)), scan.limit());
  }

  /** The rows of {@code request}: its one region's scanner, or the regions' one after another. */
  private RowStream rows(ScanRequest request) throws IOException {
    return router.size() == 1
        ? router.region(0).scanner(request)
        : new RegionChainScanner(router, request);
  }

  private static ScanRequest request(Scan scan) {
    if (scan.filter() != null) {
      scan.filter().setReversed(scan.reversed());
    }
    return new ScanRequest(
        scan.startRow(),
        scan.stopRow(),
        scan.stopRowInclusive(),
        scan.columns(),
        scan.maxVersions(),
        scan.minTimestamp(),
        scan.maxTimestamp(),
        scan.filter(),
        scan.cacheBlocks(),
        null,
        scan.reversed());
  }

  /**
   * A {@link ResultScanner} over a table's rows, up to a row limit: each row is read into one
   * reused holder and detached into a {@link Result} that holds its own pins.
   */
  private static final class RegionResultScanner implements ResultScanner {
    private final RowStream scanner;
    private final CollectedRow row = new CollectedRow();
    private long remaining;

    RegionResultScanner(RowStream scanner, long limit) {
      this.scanner = scanner;
      this.remaining = limit;
    }

    @Override
    public Result next() throws IOException {
      if (remaining <= 0) {
        return null;
      }
      try {
        if (!scanner.next(row)) {
          return null;
        }
        remaining--;
        return Result.detach(row);
      } finally {
        row.clear();
      }
    }

    @Override
    public void close() {
      row.clear();
      scanner.close();
    }
  }
}
