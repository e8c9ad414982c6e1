package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.Mutation;
import dev.cellar.Result;
import dev.cellar.RowView;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.CompareOperator;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.MetaTable;
import dev.cellar.server.catalog.RegionNames;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.filter.FilterConverter;
import dev.cellar.server.rpc.CellBlockReader;
import dev.cellar.server.rpc.MalformedCellBlockException;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.server.rpc.RpcException;
import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Action;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Condition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.MutationType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionAction;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.RegionActionResult;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ResultOrException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * {@code ClientService}: Get, Mutate, Multi and Scan on the tables' regions and on hbase:meta.
 *
 * <p><b>Routing.</b> A request names its region by name. hbase:meta's is answered from the {@link
 * MetaTable}; a table's is looked up in the {@link Catalog}: an unknown or stale name (a dropped
 * and recreated table) gets NotServingRegionException, so the client locates the region again; a
 * disabled table gets TableNotEnabledException.
 *
 * <p><b>Cells.</b> Results carry their cells in the call's cell block when the connection named a
 * codec ({@link ResultEncoder}); cells read are copied there while the row is pinned. Gets read
 * through the thread's {@link PointReaders reader}, which allocates nothing per row; scans through
 * a row scanner per scan.
 *
 * <p><b>Scans</b> keep their state in {@link Scanners}: the rows, the client's call sequence
 * number, the rows left under the scan's limit and the lease. A response holds whole rows (split
 * into batches of {@code batch_size} cells, flagged partial, when the scan asks for it) up to the
 * request's row count or the scan's result size; an exhausted scanner is closed and says so
 * ({@code more_results_in_region} false), as the client then sends no close.
 *
 * <p>Thread-safe: per-call state only, besides the scanners and the row locks.
 */
public final class ClientService implements AutoCloseable {

  public static final String NAME = "ClientService";

  private final Cellar cellar;
  private final Catalog catalog;
  private final MetaTable meta;
  private final Scanners scanners;
  private final Mutator mutator = new Mutator();
  private final boolean inlineGets;
  private final PointReaders readers;

  /**
   * @param inlineGets whether gets run on the connection's event loop rather than on a handler
   *     thread: no thread hand-off per get (two wake-ups fewer), at the price of a slow get (a cache
   *     miss that reads the disk) holding up the other connections of its event loop
   */
  public ClientService(Cellar cellar, Catalog catalog, MetaTable meta, long scannerLeaseMillis,
      boolean inlineGets) {
    this.inlineGets = inlineGets;
    this.cellar = cellar;
    this.catalog = catalog;
    this.meta = meta;
    this.scanners = new Scanners(scannerLeaseMillis, System::currentTimeMillis);
    this.readers = new PointReaders(table -> {
      try {
        return cellar.table(table.name()) == table;
      } catch (dev.cellar.TableNotFoundException e) {
        return false;
      }
    });
  }

  public RpcService service() {
    return new RpcService(NAME, List.of(
        new RpcMethod<>("Get", GetRequest.parser(), this::get, inlineGets),
        RpcMethod.of("Mutate", MutateRequest.parser(), this::mutate),
        RpcMethod.of("Multi", MultiRequest.parser(), this::multi),
        RpcMethod.of("Scan", ScanRequest.parser(), this::scan)));
  }

  /** The number of open scanners. */
  public int openScanners() {
    return scanners.size();
  }

  /** A table region a request names. */
  private record Target(Catalog.Entry entry, Table table, TableDescriptor descriptor) {}

  private static final ByteString META_REGION = ByteString.copyFrom(RegionNames.META_REGION_NAME);

  private static boolean isMeta(HBaseProtos.RegionSpecifier region) {
    return region.getValue().equals(META_REGION);
  }

  private Target target(HBaseProtos.RegionSpecifier region) throws RpcException {
    Catalog.Entry entry = catalog.byRegionName(region.getValue());
    if (entry == null) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
    if (!entry.enabled()) {
      throw RpcException.doNotRetry(RpcException.TABLE_NOT_ENABLED, entry.name()
          + " is disabled");
    }
    try {
      Table table = cellar.table(entry.name());
      return new Target(entry, table, cellar.admin().describe(entry.name()));
    } catch (dev.cellar.TableNotFoundException e) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
  }

  // ---- Get ----

  private GetResponse get(RpcCall call, GetRequest request) throws Exception {
    ClientProtos.Get proto = request.getGet();
    ClientProtos.Result result = isMeta(request.getRegion()) ? metaGet(call, proto)
        : read(call, target(request.getRegion()), proto);
    return GetResponse.newBuilder().setResult(result).build();
  }

  private ClientProtos.Result read(RpcCall call, Target target, ClientProtos.Get proto)
      throws RpcException, IOException {
    for (ClientProtos.Column column : proto.getColumnList()) {
      Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
    }
    ConvertedFilter filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter()
        : null);
    RowView row = readers.reader(target.table()).getView(Reads.get(proto, filter));
    if (proto.getExistenceOnly()) {
      return ClientProtos.Result.newBuilder().setExists(!row.isEmpty()).build();
    }
    return ResultEncoder.encode(call, row.cells(), filter);
  }

  private ClientProtos.Result metaGet(RpcCall call, ClientProtos.Get proto) {
    MetaTable.Row row = meta.row(proto.getRow().toByteArray());
    List<KeyValue> cells = row == null ? List.of() : selectColumns(row.cells(),
        proto.getColumnList());
    if (proto.getExistenceOnly()) {
      return ClientProtos.Result.newBuilder().setExists(!cells.isEmpty()).build();
    }
    return ResultEncoder.encode(call, cells, ConvertedFilter.NONE);
  }

  private static List<KeyValue> selectColumns(List<KeyValue> cells,
      List<ClientProtos.Column> columns) {
    if (columns.isEmpty()) {
      return cells;
    }
    List<KeyValue> selected = new ArrayList<>();
    for (KeyValue cell : cells) {
      for (ClientProtos.Column column : columns) {
        if (Arrays.equals(cell.familyArray(), column.getFamily().toByteArray())
            && (column.getQualifierCount() == 0 || column.getQualifierList().stream()
                .anyMatch(q -> Arrays.equals(q.toByteArray(), cell.qualifierArray())))) {
          selected.add(cell);
          break;
        }
      }
    }
    return selected;
  }

  // ---- Mutate ----

  private MutateResponse mutate(RpcCall call, MutateRequest request) throws Exception {
    if (isMeta(request.getRegion())) {
      throw RpcException.doNotRetry("hbase:meta is maintained by the server and cannot be"
          + " written");
    }
    Target target = target(request.getRegion());
    DecodedMutation decoded = DecodedMutation.decode(request.getMutation(),
        call.requestCells());
    MutateResponse.Builder response = MutateResponse.newBuilder();
    if (request.hasCondition()) {
      boolean processed = conditional(target, request.getCondition(), List.of(decoded), call,
          response);
      return response.setProcessed(processed).build();
    }
    ClientProtos.Result result = apply(call, target, decoded);
    if (result != null) {
      response.setResult(result);
    }
    return response.build();
  }

  /** Applies one mutation alone; the new cells of an increment or append, else null. */
  private ClientProtos.Result apply(RpcCall call, Target target, DecodedMutation decoded)
      throws RpcException, IOException {
    if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
      return ResultEncoder.encode(call, mutator.readModifyWrite(target.table(),
          target.descriptor(), decoded), ConvertedFilter.NONE);
    }
    Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), decoded);
    if (mutation != null) {
      target.table().batch(List.of(mutation));
    }
    return null;
  }

  /**
   * Applies {@code mutations} (one row) if {@code condition} holds, returning whether it did. A
   * single put or delete checked against a value goes through Cellar's atomic check-and-mutate;
   * anything else (a filter, a time range, several mutations, increments) is checked and applied
   * under the server's lock of the row.
   */
  private boolean conditional(Target target, Condition condition,
      List<DecodedMutation> mutations, RpcCall call, MutateResponse.Builder single)
      throws RpcException, IOException {
    for (DecodedMutation decoded : mutations) {
      if (!Arrays.equals(decoded.row(), condition.getRow().toByteArray())) {
        throw RpcException.doNotRetry("a conditional mutation's row must be the condition's"
            + " row " + DecodedMutation.printable(condition.getRow().toByteArray()));
      }
    }
    boolean simple = mutations.size() == 1 && !condition.hasFilter()
        && !condition.hasTimeRange() && (mutations.get(0).type() == MutationType.PUT
            || mutations.get(0).type() == MutationType.DELETE);
    if (simple) {
      Mutation mutation = mutator.toMutation(target.table(), target.descriptor(),
          mutations.get(0));
      if (mutation == null) {
        return false;
      }
      ReentrantLock lock = mutator.lockRow(mutation.row());
      try {
        return target.table().checkAndMutate(condition.getFamily().toByteArray(),
            condition.getQualifier().toByteArray(),
            FilterConverter.operator(condition.getCompareType()),
            conditionValue(condition.getComparator()), mutation);
      } finally {
        lock.unlock();
      }
    }
    ReentrantLock lock = mutator.lockRow(condition.getRow().toByteArray());
    try {
      if (!holds(target, condition)) {
        return false;
      }
      List<Mutation> batch = new ArrayList<>();
      for (DecodedMutation decoded : mutations) {
        if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
          List<KeyValue> cells = mutator.readModifyWriteLocked(target.table(),
              target.descriptor(), decoded);
          if (single != null) {
            single.setResult(ResultEncoder.encode(call, cells, ConvertedFilter.NONE));
          }
        } else {
          Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), decoded);
          if (mutation != null) {
            batch.add(mutation);
          }
        }
      }
      if (!batch.isEmpty()) {
        target.table().batch(batch);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private boolean holds(Target target, Condition condition) throws RpcException, IOException {
    ClientProtos.Get.Builder get = ClientProtos.Get.newBuilder().setRow(condition.getRow());
    if (condition.hasTimeRange()) {
      get.setTimeRange(condition.getTimeRange());
    }
    if (condition.hasFilter()) {
      get.setFilter(condition.getFilter());
      ConvertedFilter filter = FilterConverter.convert(condition.getFilter());
      try (Result result = target.table().get(Reads.get(get.build(), filter))) {
        return !result.isEmpty();
      }
    }
    byte[] family = condition.getFamily().toByteArray();
    byte[] qualifier = condition.getQualifier().toByteArray();
    get.addColumn(ClientProtos.Column.newBuilder().setFamily(condition.getFamily())
        .addQualifier(condition.getQualifier()));
    byte[] expected = conditionValue(condition.getComparator());
    CompareOperator operator = FilterConverter.operator(condition.getCompareType());
    try (Result result = target.table().get(Reads.get(get.build(), ConvertedFilter.NONE))) {
      byte[] current = result.getValue(family, qualifier);
      if (expected == null || current == null) {
        boolean bothAbsent = expected == null && current == null;
        return operator == CompareOperator.EQUAL ? bothAbsent
            : operator == CompareOperator.NOT_EQUAL && !bothAbsent;
      }
      int order = Bytes.compare(expected, current);
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
  }

  /** The value a condition compares with; null for "the column is absent". */
  private static byte[] conditionValue(ComparatorProtos.Comparator comparator)
      throws RpcException {
    if (!comparator.getName().equals("org.apache.hadoop.hbase.filter.BinaryComparator")) {
      throw RpcException.doNotRetry("a condition with comparator " + comparator.getName()
          + " is not supported by Cellar; use BinaryComparator");
    }
    try {
      ComparatorProtos.BinaryComparator binary = ComparatorProtos.BinaryComparator.parseFrom(
          comparator.getSerializedComparator());
      return binary.getComparable().hasValue() ? binary.getComparable().getValue().toByteArray()
          : null;
    } catch (IOException e) {
      throw RpcException.doNotRetry("the condition's comparator could not be parsed: "
          + e.getMessage());
    }
  }

  // ---- Multi ----

  private MultiResponse multi(RpcCall call, MultiRequest request) throws Exception {
    CellBlockReader cells = call.requestCells();
    MultiResponse.Builder response = MultiResponse.newBuilder();
    for (RegionAction action : request.getRegionActionList()) {
      response.addRegionActionResult(regionAction(call, action, cells));
    }
    return response.build();
  }

  private RegionActionResult regionAction(RpcCall call, RegionAction action,
      CellBlockReader cells) throws MalformedCellBlockException {
    Target target;
    try {
      if (isMeta(action.getRegion())) {
        throw RpcException.doNotRetry("batches on hbase:meta are not supported");
      }
      target = target(action.getRegion());
    } catch (RpcException e) {
      skipCells(action, cells);
      return RegionActionResult.newBuilder().setException(exception(e)).build();
    }
    if (action.getAtomic() || action.hasCondition()) {
      return atomic(call, target, action, cells);
    }
    ResultOrException.Builder[] outcomes = new ResultOrException.Builder[action.getActionCount()];
    List<Mutation> pending = new ArrayList<>();
    List<Integer> pendingSlots = new ArrayList<>();
    for (int i = 0; i < outcomes.length; i++) {
      Action item = action.getAction(i);
      outcomes[i] = ResultOrException.newBuilder().setIndex(item.getIndex());
      try {
        if (item.hasGet()) {
          outcomes[i].setResult(read(call, target, item.getGet()));
        } else if (item.hasMutation()) {
          DecodedMutation decoded = DecodedMutation.decode(item.getMutation(), cells);
          if (decoded.type() == MutationType.INCREMENT
              || decoded.type() == MutationType.APPEND) {
            outcomes[i].setResult(apply(call, target, decoded));
          } else {
            Mutation mutation = mutator.toMutation(target.table(), target.descriptor(),
                decoded);
            outcomes[i].setResult(ClientProtos.Result.getDefaultInstance());
            if (mutation != null) {
              pending.add(mutation);
              pendingSlots.add(i);
            }
          }
        } else {
          throw RpcException.doNotRetry("coprocessor calls are not supported by Cellar");
        }
      } catch (MalformedCellBlockException e) {
        throw e;
      } catch (Exception e) {
        outcomes[i].clearResult().setException(exception(e));
      }
    }
    if (!pending.isEmpty()) {
      try {
        target.table().batch(pending);
      } catch (Exception e) {
        for (int slot : pendingSlots) {
          outcomes[slot].clearResult().setException(exception(e));
        }
      }
    }
    RegionActionResult.Builder result = RegionActionResult.newBuilder();
    for (ResultOrException.Builder outcome : outcomes) {
      result.addResultOrException(outcome);
    }
    return result.build();
  }

  private RegionActionResult atomic(RpcCall call, Target target, RegionAction action,
      CellBlockReader cells) throws MalformedCellBlockException {
    RegionActionResult.Builder result = RegionActionResult.newBuilder();
    try {
      List<DecodedMutation> mutations = new ArrayList<>();
      for (Action item : action.getActionList()) {
        if (!item.hasMutation()) {
          throw RpcException.doNotRetry("an atomic batch holds mutations only");
        }
        mutations.add(DecodedMutation.decode(item.getMutation(), cells));
      }
      boolean processed;
      if (action.hasCondition()) {
        processed = conditional(target, action.getCondition(), mutations, call, null);
      } else {
        processed = true;
        applyAtomically(call, target, mutations);
      }
      result.setProcessed(processed);
      for (int i = 0; i < action.getActionCount(); i++) {
        result.addResultOrException(ResultOrException.newBuilder().setIndex(i)
            .setResult(ClientProtos.Result.getDefaultInstance()));
      }
      return result.build();
    } catch (MalformedCellBlockException e) {
      throw e;
    } catch (Exception e) {
      return RegionActionResult.newBuilder().setException(exception(e)).build();
    }
  }

  private void applyAtomically(RpcCall call, Target target, List<DecodedMutation> mutations)
      throws RpcException, IOException {
    byte[] row = mutations.isEmpty() ? null : mutations.get(0).row();
    List<Mutation> batch = new ArrayList<>();
    for (DecodedMutation decoded : mutations) {
      if (!Arrays.equals(decoded.row(), row)) {
        throw RpcException.doNotRetry("an atomic batch changes one row; found "
            + DecodedMutation.printable(row) + " and " + DecodedMutation.printable(decoded.row()));
      }
      if (decoded.type() == MutationType.INCREMENT || decoded.type() == MutationType.APPEND) {
        throw RpcException.doNotRetry("increments and appends in an atomic batch are not"
            + " supported by Cellar");
      }
      Mutation mutation = mutator.toMutation(target.table(), target.descriptor(), decoded);
      if (mutation != null) {
        batch.add(mutation);
      }
    }
    if (!batch.isEmpty()) {
      target.table().batch(batch);
    }
  }

  private static void skipCells(RegionAction action, CellBlockReader cells)
      throws MalformedCellBlockException {
    for (Action item : action.getActionList()) {
      if (item.hasMutation()) {
        for (int i = 0; i < item.getMutation().getAssociatedCellCount(); i++) {
          if (!cells.advance()) {
            throw new MalformedCellBlockException("the request's cell block ended before the"
                + " cells of a batch's mutations");
          }
        }
      }
    }
  }

  private static NameBytesPair exception(Exception failure) {
    RpcException rpc = failure instanceof RpcException e ? e
        : failure instanceof dev.cellar.TableNotFoundException e
            ? RpcException.tableNotFound(e.getMessage())
        : failure instanceof IllegalArgumentException e ? RpcException.doNotRetry(e.getMessage())
        : RpcException.retriable(RpcException.IO, String.valueOf(failure));
    return NameBytesPair.newBuilder().setName(rpc.className())
        .setValue(ByteString.copyFromUtf8(rpc.getMessage() == null ? "" : rpc.getMessage()))
        .build();
  }

  // ---- Scan ----

  private ScanResponse scan(RpcCall call, ScanRequest request) throws Exception {
    if (request.hasScannerId()) {
      return next(call, request);
    }
    if (!request.hasRegion() || !request.hasScan()) {
      throw RpcException.doNotRetry("a scan request names a scanner or a region and a scan");
    }
    ClientProtos.Scan proto = request.getScan();
    ConvertedFilter filter;
    RowSource rows;
    if (isMeta(request.getRegion())) {
      filter = ConvertedFilter.NONE;
      rows = RowSource.of(metaRows(proto));
    } else {
      Target target = target(request.getRegion());
      for (ClientProtos.Column column : proto.getColumnList()) {
        Mutator.requireFamily(target.descriptor(), column.getFamily().toByteArray());
      }
      filter = FilterConverter.convert(proto.hasFilter() ? proto.getFilter() : null);
      byte[] start = proto.getStartRow().toByteArray();
      boolean excludeStart = proto.hasIncludeStartRow() && !proto.getIncludeStartRow()
          && start.length > 0;
      rows = RowSource.of(target.table().rowScanner(Reads.scan(proto, filter)),
          excludeStart ? start : null);
    }
    long limit = request.getLimitOfRows() > 0 ? request.getLimitOfRows() : Long.MAX_VALUE;
    long maxResultSize = proto.getMaxResultSize() > 0 ? proto.getMaxResultSize()
        : Long.MAX_VALUE;
    Scanners.Open scanner = scanners.register(rows, filter, proto.getBatchSize(), maxResultSize,
        limit);
    scanner.lock.lock();
    try {
      ScanResponse.Builder response = ScanResponse.newBuilder().setScannerId(scanner.id);
      return fill(call, scanner, request, response);
    } finally {
      scanner.lock.unlock();
    }
  }

  private ScanResponse next(RpcCall call, ScanRequest request) throws Exception {
    long id = request.getScannerId();
    if (request.getCloseScanner() && !scanners.isOpen(id) && request.getNumberOfRows() == 0) {
      return ScanResponse.newBuilder().setScannerId(id).setMoreResults(false)
          .setMoreResultsInRegion(false).build();
    }
    Scanners.Open scanner = scanners.acquire(id);
    try {
      if (request.hasNextCallSeq() && request.getNextCallSeq() != scanner.nextCallSeq) {
        scanners.closeLocked(scanner);
        throw RpcException.doNotRetry(RpcException.OUT_OF_ORDER_SCANNER_NEXT, "Expected"
            + " nextCallSeq: " + scanner.nextCallSeq + " But the nextCallSeq got from client: "
            + request.getNextCallSeq() + "; request=scanner_id: " + id);
      }
      ScanResponse.Builder response = ScanResponse.newBuilder().setScannerId(id);
      if (request.getRenew()) {
        scanner.nextCallSeq++;
        return response.setMoreResults(true).setMoreResultsInRegion(true)
            .setTtl((int) scanners.leaseMillis()).build();
      }
      scanner.nextCallSeq++;
      return fill(call, scanner, request, response);
    } finally {
      scanner.lock.unlock();
    }
  }

  /** Reads rows into the response; the caller holds the scanner's lock. */
  private ScanResponse fill(RpcCall call, Scanners.Open scanner, ScanRequest request,
      ScanResponse.Builder response) throws IOException {
    boolean blocks = call.codec().usesCellBlocks();
    long rowsWanted = request.hasNumberOfRows() ? request.getNumberOfRows() : Long.MAX_VALUE;
    long rows = 0;
    long bytes = 0;
    boolean exhausted = false;
    try {
      while (rows < rowsWanted && bytes < scanner.maxResultSize && !request.getCloseScanner()) {
        if (scanner.remainingRows <= 0) {
          exhausted = true;
          break;
        }
        List<? extends Cell> row = scanner.rows.next();
        if (row == null) {
          exhausted = true;
          break;
        }
        int batch = scanner.batch > 0 ? scanner.batch : row.size();
        for (int from = 0; from < row.size(); from += batch) {
          int to = Math.min(row.size(), from + batch);
          if (blocks) {
            ResultEncoder.append(call.cells(), row, from, to, scanner.filter);
            response.addCellsPerResult(to - from);
            response.addPartialFlagPerResult(to < row.size());
          } else {
            ClientProtos.Result.Builder result = ClientProtos.Result.newBuilder();
            for (int i = from; i < to; i++) {
              result.addCell(ResultEncoder.protoCell(row.get(i), scanner.filter));
            }
            response.addResults(result.setPartial(to < row.size()));
          }
        }
        bytes += ResultEncoder.size(row);
        rows++;
        scanner.remainingRows--;
      }
      if (!exhausted && scanner.remainingRows <= 0) {
        exhausted = true;
      }
    } catch (IOException | RuntimeException e) {
      scanners.closeLocked(scanner);
      throw e;
    }
    if (exhausted || request.getCloseScanner()) {
      scanners.closeLocked(scanner);
    }
    return response.setMoreResultsInRegion(!exhausted).setMoreResults(!exhausted)
        .setTtl((int) scanners.leaseMillis()).build();
  }

  /** hbase:meta's rows a scan selects, in the scan's direction. */
  private List<MetaTable.Row> metaRows(ClientProtos.Scan scan) {
    byte[] start = scan.getStartRow().toByteArray();
    byte[] stop = scan.getStopRow().toByteArray();
    boolean reversed = scan.getReversed();
    boolean includeStart = !scan.hasIncludeStartRow() || scan.getIncludeStartRow();
    boolean includeStop = scan.getIncludeStopRow();
    List<MetaTable.Row> all = new ArrayList<>(meta.rows());
    if (reversed) {
      java.util.Collections.reverse(all);
    }
    List<MetaTable.Row> selected = new ArrayList<>();
    for (MetaTable.Row row : all) {
      int fromStart = start.length == 0 ? 1 : direction(reversed,
          dev.cellar.server.catalog.MetaKeys.compare(row.key(), start));
      int toStop = stop.length == 0 ? -1 : direction(reversed,
          dev.cellar.server.catalog.MetaKeys.compare(row.key(), stop));
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

  /** Closes the open scanners and the threads' readers; calls must have stopped. */
  @Override
  public void close() {
    scanners.close();
    readers.close();
  }
}
