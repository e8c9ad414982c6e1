package dev.cellar.server.service;

import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.SchemaMapping;
import dev.cellar.server.rpc.MethodCallCounts;
import dev.cellar.server.rpc.RpcException;
import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NamespaceDescriptor;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.ProcedureDescription;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.*;

/**
 * {@code MasterService}: the calls behind HBase's {@code Admin} for tables (create, delete,
 * disable, enable, truncate, and the alters: modifyTable, addColumnFamily, modifyColumnFamily,
 * deleteColumnFamily, online as HBase 2's are), namespaces, and the cluster's status ({@link
 * ClusterStatusReport}, for {@code getClusterMetrics}). Each change is done before its call returns
 * (through the {@link Catalog}); the procedure id it answers with is reported FINISHED by {@code
 * getProcedureResult}, so the client's wait ends at its first poll. Procedure ids are unique for
 * the process; an id never issued is NOT_FOUND. Thread-safe (the catalog serializes changes).
 */
public final class MasterService {

  public static final String NAME = "MasterService";

  private final Catalog catalog;
  private final AtomicLong procedures = new AtomicLong();

  private MasterService(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * The service over {@code catalog}; {@code ExecMasterService} calls go to {@code export} ({@link
   * ExportEndpoint}), {@code GetClusterStatus} to {@code status}; every call counts in {@code
   * calls}, by method.
   */
  public static RpcService create(
      Catalog catalog, ExportEndpoint export, ClusterStatusReport status, MethodCallCounts calls) {
    MasterService master = new MasterService(catalog);
    IsMasterRunningResponse running =
        IsMasterRunningResponse.newBuilder().setIsMasterRunning(true).build();
    return UnservedMethods.service(
        NAME,
        MasterProtos.MasterService.getDescriptor(),
        calls.counting(
            List.of(
                RpcMethod.inline(
                    "IsMasterRunning", IsMasterRunningRequest.parser(), (c, r) -> running),
                RpcMethod.of(
                    "CreateTable", CreateTableRequest.parser(), (c, r) -> master.create(r)),
                RpcMethod.of(
                    "DeleteTable", DeleteTableRequest.parser(), (c, r) -> master.delete(r)),
                RpcMethod.of(
                    "DisableTable", DisableTableRequest.parser(), (c, r) -> master.disable(r)),
                RpcMethod.of(
                    "EnableTable", EnableTableRequest.parser(), (c, r) -> master.enable(r)),
                RpcMethod.of(
                    "truncateTable", TruncateTableRequest.parser(), (c, r) -> master.truncate(r)),
                RpcMethod.of(
                    "ModifyTable", ModifyTableRequest.parser(), (c, r) -> master.modify(r)),
                RpcMethod.of("AddColumn", AddColumnRequest.parser(), (c, r) -> master.addColumn(r)),
                RpcMethod.of(
                    "ModifyColumn", ModifyColumnRequest.parser(), (c, r) -> master.modifyColumn(r)),
                RpcMethod.of(
                    "DeleteColumn", DeleteColumnRequest.parser(), (c, r) -> master.deleteColumn(r)),
                RpcMethod.inline(
                    "GetSchemaAlterStatus",
                    GetSchemaAlterStatusRequest.parser(),
                    (c, r) -> master.alterStatus(r)),
                RpcMethod.of(
                    "FlushTable", FlushTableRequest.parser(), (c, r) -> master.flushTable(r)),
                RpcMethod.of(
                    "ExecProcedure",
                    ExecProcedureRequest.parser(),
                    (c, r) -> master.execProcedure(r)),
                RpcMethod.inline(
                    "IsProcedureDone",
                    IsProcedureDoneRequest.parser(),
                    (c, r) -> master.isProcedureDone(r)),
                RpcMethod.inline(
                    "getProcedureResult",
                    GetProcedureResultRequest.parser(),
                    (c, r) -> master.procedureResult(r)),
                RpcMethod.inline(
                    "IsProcedureDone",
                    IsProcedureDoneRequest.parser(),
                    (c, r) -> IsProcedureDoneResponse.newBuilder().setDone(true).build()),
                RpcMethod.of(
                    "GetTableDescriptors",
                    GetTableDescriptorsRequest.parser(),
                    (c, r) -> master.descriptors(r)),
                RpcMethod.of(
                    "GetTableNames", GetTableNamesRequest.parser(), (c, r) -> master.names(r)),
                RpcMethod.inline(
                    "GetTableState", GetTableStateRequest.parser(), (c, r) -> master.state(r)),
                RpcMethod.of(
                    "CreateNamespace",
                    CreateNamespaceRequest.parser(),
                    (c, r) -> master.createNamespace(r)),
                RpcMethod.of(
                    "ModifyNamespace",
                    ModifyNamespaceRequest.parser(),
                    (c, r) -> master.modifyNamespace(r)),
                RpcMethod.of(
                    "DeleteNamespace",
                    DeleteNamespaceRequest.parser(),
                    (c, r) -> master.deleteNamespace(r)),
                RpcMethod.inline(
                    "ListNamespaceDescriptors",
                    ListNamespaceDescriptorsRequest.parser(),
                    (c, r) ->
                        ListNamespaceDescriptorsResponse.newBuilder()
                            .addAllNamespaceDescriptor(catalog.namespaces())
                            .build()),
                RpcMethod.inline(
                    "ListNamespaces",
                    ListNamespacesRequest.parser(),
                    (c, r) -> master.namespaceNames()),
                RpcMethod.inline(
                    "GetNamespaceDescriptor",
                    GetNamespaceDescriptorRequest.parser(),
                    (c, r) ->
                        GetNamespaceDescriptorResponse.newBuilder()
                            .setNamespaceDescriptor(master.existing(r.getNamespaceName()))
                            .build()),
                RpcMethod.inline(
                    "ListTableDescriptorsByNamespace",
                    ListTableDescriptorsByNamespaceRequest.parser(),
                    (c, r) -> master.descriptorsIn(r.getNamespaceName())),
                RpcMethod.inline(
                    "ListTableNamesByNamespace",
                    ListTableNamesByNamespaceRequest.parser(),
                    (c, r) -> master.namesIn(r.getNamespaceName())),
                RpcMethod.of(
                    "GetClusterStatus",
                    GetClusterStatusRequest.parser(),
                    (c, r) ->
                        GetClusterStatusResponse.newBuilder()
                            .setClusterStatus(status.report(r.getOptionsList()))
                            .build()),
                RpcMethod.of(
                    "ExecMasterService",
                    CoprocessorServiceRequest.parser(),
                    (c, r) -> export.call(r)))));
  }

  /** The signature of HBase's table flush run as a procedure by name. */
  private static final String FLUSH_TABLE_PROCEDURE = "flush-table-proc";

  private long nextProcedure() {
    return procedures.incrementAndGet();
  }

  private CreateTableResponse create(CreateTableRequest request) throws Exception {
    byte[][] splitKeys = new byte[request.getSplitKeysCount()][];
    for (int i = 0; i < splitKeys.length; i++) {
      splitKeys[i] = request.getSplitKeys(i).toByteArray();
    }
    catalog.create(request.getTableSchema(), splitKeys);
    return CreateTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private DeleteTableResponse delete(DeleteTableRequest request) throws Exception {
    catalog.delete(SchemaMapping.tableName(request.getTableName()));
    return DeleteTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private DisableTableResponse disable(DisableTableRequest request) throws Exception {
    catalog.setEnabled(SchemaMapping.tableName(request.getTableName()), false);
    return DisableTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private EnableTableResponse enable(EnableTableRequest request) throws Exception {
    catalog.setEnabled(SchemaMapping.tableName(request.getTableName()), true);
    return EnableTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private TruncateTableResponse truncate(TruncateTableRequest request) throws Exception {
    catalog.truncate(SchemaMapping.tableName(request.getTableName()), request.getPreserveSplits());
    return TruncateTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private ModifyTableResponse modify(ModifyTableRequest request) throws Exception {
    checkSameTable(request.getTableName(), request.getTableSchema().getTableName());
    catalog.modifyTable(request.getTableSchema());
    return ModifyTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private AddColumnResponse addColumn(AddColumnRequest request) throws Exception {
    catalog.addFamily(SchemaMapping.tableName(request.getTableName()), request.getColumnFamilies());
    return AddColumnResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private ModifyColumnResponse modifyColumn(ModifyColumnRequest request) throws Exception {
    catalog.modifyFamily(
        SchemaMapping.tableName(request.getTableName()), request.getColumnFamilies());
    return ModifyColumnResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private DeleteColumnResponse deleteColumn(DeleteColumnRequest request) throws Exception {
    catalog.deleteFamily(
        SchemaMapping.tableName(request.getTableName()), request.getColumnName().toStringUtf8());
    return DeleteColumnResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  /**
   * How many regions still wait for the table's last alter (the blocking HBase Admin polls this
   * after the procedure): none, as an alter is done before its call returns, of all its regions.
   */
  private GetSchemaAlterStatusResponse alterStatus(GetSchemaAlterStatusRequest request)
      throws RpcException {
    Catalog.Entry entry = lookup(request.getTableName());
    if (entry == null) {
      throw RpcException.tableNotFound(request.getTableName().getQualifier().toStringUtf8());
    }
    return GetSchemaAlterStatusResponse.newBuilder()
        .setYetToUpdateRegions(0)
        .setTotalRegions(entry.regions().size())
        .build();
  }

  /**
   * Flushes a table (HBase 2.6's {@code Admin.flush}): every region, every family (a flush of
   * families named is a flush of all of them), done before the call returns.
   */
  private FlushTableResponse flushTable(FlushTableRequest request) throws Exception {
    catalog.flush(SchemaMapping.tableName(request.getTableName()));
    return FlushTableResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  /**
   * The procedures HBase's older clients run by signature: {@code flush-table-proc} (a table's
   * flush, the fallback of {@code Admin.flush}); any other is refused, naming it.
   */
  private ExecProcedureResponse execProcedure(ExecProcedureRequest request) throws Exception {
    ProcedureDescription procedure = request.getProcedure();
    if (!procedure.getSignature().equals(FLUSH_TABLE_PROCEDURE)) {
      throw RpcException.doNotRetry(
          "procedure '"
              + procedure.getSignature()
              + "' is not supported by Cellar (it runs "
              + FLUSH_TABLE_PROCEDURE
              + " only)");
    }
    String table = procedure.getInstance();
    catalog.flush(table.startsWith("default:") ? table.substring("default:".length()) : table);
    return ExecProcedureResponse.newBuilder().setExpectedTimeout(0).build();
  }

  /** Whether a procedure run by signature is done: it is, as each finishes before its call. */
  private IsProcedureDoneResponse isProcedureDone(IsProcedureDoneRequest request)
      throws RpcException {
    if (!request.getProcedure().getSignature().equals(FLUSH_TABLE_PROCEDURE)) {
      throw RpcException.doNotRetry(
          "procedure '" + request.getProcedure().getSignature() + "' is not supported by Cellar");
    }
    return IsProcedureDoneResponse.newBuilder().setDone(true).build();
  }

  private static void checkSameTable(HBaseProtos.TableName named, HBaseProtos.TableName schema)
      throws RpcException {
    if (!named.equals(schema)) {
      throw RpcException.doNotRetry(
          "ModifyTable names table "
              + SchemaMapping.tableName(named)
              + " but its schema is of table "
              + SchemaMapping.tableName(schema));
    }
  }

  private GetProcedureResultResponse procedureResult(GetProcedureResultRequest request) {
    boolean issued = request.getProcId() > 0 && request.getProcId() <= procedures.get();
    return GetProcedureResultResponse.newBuilder()
        .setState(
            issued
                ? GetProcedureResultResponse.State.FINISHED
                : GetProcedureResultResponse.State.NOT_FOUND)
        .build();
  }

  private GetTableDescriptorsResponse descriptors(GetTableDescriptorsRequest request)
      throws RpcException {
    GetTableDescriptorsResponse.Builder response = GetTableDescriptorsResponse.newBuilder();
    if (request.getTableNamesCount() > 0) {
      for (HBaseProtos.TableName name : request.getTableNamesList()) {
        Catalog.Entry entry = lookup(name);
        if (entry != null) {
          response.addTableSchema(entry.schema());
        }
      }
      return response.build();
    }
    TableNamePattern pattern = TableNamePattern.of(request.hasRegex() ? request.getRegex() : null);
    for (Catalog.Entry entry : listed(request.hasNamespace() ? request.getNamespace() : null)) {
      if (pattern == null || pattern.matches(entry.name())) {
        response.addTableSchema(entry.schema());
      }
    }
    return response.build();
  }

  private GetTableNamesResponse names(GetTableNamesRequest request) throws RpcException {
    GetTableNamesResponse.Builder response = GetTableNamesResponse.newBuilder();
    TableNamePattern pattern = TableNamePattern.of(request.hasRegex() ? request.getRegex() : null);
    for (Catalog.Entry entry : listed(request.hasNamespace() ? request.getNamespace() : null)) {
      if (pattern == null || pattern.matches(entry.name())) {
        response.addTableNames(SchemaMapping.protoName(entry.name()));
      }
    }
    return response.build();
  }

  private GetTableStateResponse state(GetTableStateRequest request) throws RpcException {
    Catalog.Entry entry = lookup(request.getTableName());
    if (entry == null) {
      throw RpcException.tableNotFound(SchemaMapping.tableName(request.getTableName()));
    }
    return GetTableStateResponse.newBuilder()
        .setTableState(
            TableState.newBuilder()
                .setState(entry.enabled() ? TableState.State.ENABLED : TableState.State.DISABLED))
        .build();
  }

  private CreateNamespaceResponse createNamespace(CreateNamespaceRequest request) throws Exception {
    catalog.createNamespace(request.getNamespaceDescriptor());
    return CreateNamespaceResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private ModifyNamespaceResponse modifyNamespace(ModifyNamespaceRequest request) throws Exception {
    catalog.modifyNamespace(request.getNamespaceDescriptor());
    return ModifyNamespaceResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private DeleteNamespaceResponse deleteNamespace(DeleteNamespaceRequest request) throws Exception {
    catalog.deleteNamespace(request.getNamespaceName());
    return DeleteNamespaceResponse.newBuilder().setProcId(nextProcedure()).build();
  }

  private ListNamespacesResponse namespaceNames() {
    ListNamespacesResponse.Builder response = ListNamespacesResponse.newBuilder();
    for (NamespaceDescriptor namespace : catalog.namespaces()) {
      response.addNamespaceName(namespace.getName().toStringUtf8());
    }
    return response.build();
  }

  /** The namespace {@code name}. @throws RpcException NamespaceNotFoundException */
  private NamespaceDescriptor existing(String name) throws RpcException {
    NamespaceDescriptor namespace = catalog.namespace(name);
    if (namespace == null) {
      throw RpcException.doNotRetry(RpcException.NAMESPACE_NOT_FOUND, name);
    }
    return namespace;
  }

  private ListTableDescriptorsByNamespaceResponse descriptorsIn(String namespace)
      throws RpcException {
    existing(namespace);
    ListTableDescriptorsByNamespaceResponse.Builder response =
        ListTableDescriptorsByNamespaceResponse.newBuilder();
    for (Catalog.Entry entry : catalog.tablesIn(namespace)) {
      response.addTableSchema(entry.schema());
    }
    return response.build();
  }

  private ListTableNamesByNamespaceResponse namesIn(String namespace) throws RpcException {
    existing(namespace);
    ListTableNamesByNamespaceResponse.Builder response =
        ListTableNamesByNamespaceResponse.newBuilder();
    for (Catalog.Entry entry : catalog.tablesIn(namespace)) {
      response.addTableName(SchemaMapping.protoName(entry.name()));
    }
    return response.build();
  }

  private List<Catalog.Entry> listed(String namespace) {
    if (namespace != null && !namespace.isEmpty()) {
      return catalog.tablesIn(namespace);
    }
    return List.copyOf(catalog.entries());
  }

  private Catalog.Entry lookup(HBaseProtos.TableName name) {
    return catalog.byName(SchemaMapping.tableName(name));
  }
}
