package dev.cellar.client;

import dev.cellar.Admin;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.RegionInfo;
import dev.cellar.TableDescriptor;
import dev.cellar.TableNotFoundException;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcClient;
import dev.cellar.client.rpc.RpcResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * {@link Admin} over the server's MasterService (tables: create, list, describe, alter, disable,
 * enable, truncate, delete, each waited for through its procedure id as HBase's Admin does),
 * namespaces (list, describe, create, delete) and AdminService (flushes and compactions of a
 * table's region). Dropping a table disables it first when needed, as the embedded {@code
 * dropTable} needs no separate step. Methods of the {@link Admin} interface that declare no
 * IOException report a failed call as an {@link UncheckedIOException}. Thread-safe.
 */
public final class RemoteAdmin implements Admin {

  private static final String MASTER = "MasterService";
  private static final String ADMIN = "AdminService";
  private static final long PROCEDURE_POLL_MILLIS = 10;

  private final RpcClient rpc;
  private final ClientSettings settings;
  private final Retrier retrier;
  private final RegionLocator locator;

  RemoteAdmin(RpcClient rpc, ClientSettings settings, Retrier retrier, RegionLocator locator) {
    this.rpc = rpc;
    this.settings = settings;
    this.retrier = retrier;
    this.locator = locator;
  }

  private <M extends Message> M call(
      String service, String method, String table, Message request, Parser<M> parser)
      throws IOException {
    return retrier.run(
        service + "." + method + (table == null ? "" : " of " + table),
        table,
        () -> {
          RpcResponse<M> response =
              Retrier.await(
                  rpc.call(service, method, request, null, parser, settings.rpcTimeoutMillis()));
          response.release();
          return response.message();
        });
  }

  /** Waits until the procedure {@code id} finished; fails with its failure. */
  private void await(long id, String what) throws IOException {
    long deadline = System.nanoTime() + settings.operationTimeoutMillis() * 1_000_000;
    while (true) {
      MasterProtos.GetProcedureResultResponse result =
          call(
              MASTER,
              "getProcedureResult",
              null,
              MasterProtos.GetProcedureResultRequest.newBuilder().setProcId(id).build(),
              MasterProtos.GetProcedureResultResponse.parser());
      switch (result.getState()) {
        case FINISHED -> {
          if (result.hasException()) {
            throw new IOException(
                what + " failed: " + result.getException().getGenericException().getMessage());
          }
          return;
        }
        case NOT_FOUND -> {
          return;
        }
        default -> {
          if (System.nanoTime() > deadline) {
            throw new IOException(
                what + " did not finish in " + settings.operationTimeoutMillis() + " ms");
          }
          try {
            Thread.sleep(PROCEDURE_POLL_MILLIS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted waiting for " + what);
          }
        }
      }
    }
  }

  @Override
  public void createTable(TableDescriptor descriptor) throws IOException {
    createTable(descriptor, new byte[0][]);
  }

  /** Sends the split keys sorted, as HBase's client does; the server checks them. */
  @Override
  public void createTable(TableDescriptor descriptor, byte[][] splitKeys) throws IOException {
    MasterProtos.CreateTableRequest.Builder request =
        MasterProtos.CreateTableRequest.newBuilder().setTableSchema(Schemas.schema(descriptor));
    byte[][] sorted = splitKeys.clone();
    Arrays.sort(sorted, Arrays::compareUnsigned);
    for (byte[] key : sorted) {
      request.addSplitKeys(Protos.bytes(key));
    }
    MasterProtos.CreateTableResponse response =
        call(
            MASTER,
            "CreateTable",
            descriptor.name(),
            request.build(),
            MasterProtos.CreateTableResponse.parser());
    await(response.getProcId(), "creating table " + descriptor.name());
  }

  /** The regions hbase:meta lists for the table, as the server names them. */
  @Override
  public List<RegionInfo> regions(String table) throws IOException {
    locator.forget(table);
    List<RegionInfo> regions = new ArrayList<>();
    for (RegionLocator.Located region : locator.regions(table)) {
      regions.add(RegionInfo.of(table, region.startKey(), region.endKey(), region.regionId()));
    }
    return regions;
  }

  @Override
  public List<String> listTables() {
    try {
      MasterProtos.GetTableNamesResponse response =
          call(
              MASTER,
              "GetTableNames",
              null,
              MasterProtos.GetTableNamesRequest.newBuilder().setIncludeSysTables(false).build(),
              MasterProtos.GetTableNamesResponse.parser());
      return response.getTableNamesList().stream().map(Schemas::name).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public TableDescriptor describe(String table) {
    try {
      MasterProtos.GetTableDescriptorsResponse response =
          call(
              MASTER,
              "GetTableDescriptors",
              table,
              MasterProtos.GetTableDescriptorsRequest.newBuilder()
                  .addTableNames(Schemas.tableName(table))
                  .build(),
              MasterProtos.GetTableDescriptorsResponse.parser());
      if (response.getTableSchemaCount() == 0) {
        throw new TableNotFoundException(table);
      }
      return Schemas.descriptor(response.getTableSchema(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean tableExists(String table) {
    try {
      call(
          MASTER,
          "GetTableState",
          table,
          MasterProtos.GetTableStateRequest.newBuilder()
              .setTableName(Schemas.tableName(table))
              .build(),
          MasterProtos.GetTableStateResponse.parser());
      return true;
    } catch (TableNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether {@code table} is enabled (serves reads and writes). */
  public boolean isEnabled(String table) throws IOException {
    MasterProtos.GetTableStateResponse response =
        call(
            MASTER,
            "GetTableState",
            table,
            MasterProtos.GetTableStateRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .build(),
            MasterProtos.GetTableStateResponse.parser());
    return response.getTableState().getState() == HBaseProtos.TableState.State.ENABLED;
  }

  /** The server's namespaces (HBase's {@code default} and {@code hbase} among them), sorted. */
  public List<String> listNamespaces() throws IOException {
    MasterProtos.ListNamespacesResponse response =
        call(
            MASTER,
            "ListNamespaces",
            null,
            MasterProtos.ListNamespacesRequest.getDefaultInstance(),
            MasterProtos.ListNamespacesResponse.parser());
    return response.getNamespaceNameList().stream().sorted().toList();
  }

  /** The configuration of {@code namespace}; fails with NamespaceNotFoundException. */
  public Map<String, String> describeNamespace(String namespace) throws IOException {
    MasterProtos.GetNamespaceDescriptorResponse response =
        call(
            MASTER,
            "GetNamespaceDescriptor",
            null,
            MasterProtos.GetNamespaceDescriptorRequest.newBuilder()
                .setNamespaceName(namespace)
                .build(),
            MasterProtos.GetNamespaceDescriptorResponse.parser());
    Map<String, String> configuration = new LinkedHashMap<>();
    for (HBaseProtos.NameStringPair pair :
        response.getNamespaceDescriptor().getConfigurationList()) {
      configuration.put(pair.getName(), pair.getValue());
    }
    return configuration;
  }

  /** Creates {@code namespace} with {@code configuration} (HBase's namespace properties). */
  public void createNamespace(String namespace, Map<String, String> configuration)
      throws IOException {
    HBaseProtos.NamespaceDescriptor.Builder descriptor =
        HBaseProtos.NamespaceDescriptor.newBuilder().setName(ByteString.copyFromUtf8(namespace));
    configuration.forEach(
        (name, value) ->
            descriptor.addConfiguration(
                HBaseProtos.NameStringPair.newBuilder().setName(name).setValue(value)));
    MasterProtos.CreateNamespaceResponse response =
        call(
            MASTER,
            "CreateNamespace",
            null,
            MasterProtos.CreateNamespaceRequest.newBuilder()
                .setNamespaceDescriptor(descriptor)
                .build(),
            MasterProtos.CreateNamespaceResponse.parser());
    await(response.getProcId(), "creating namespace " + namespace);
  }

  /** Deletes {@code namespace}, which must hold no tables. */
  public void deleteNamespace(String namespace) throws IOException {
    MasterProtos.DeleteNamespaceResponse response =
        call(
            MASTER,
            "DeleteNamespace",
            null,
            MasterProtos.DeleteNamespaceRequest.newBuilder().setNamespaceName(namespace).build(),
            MasterProtos.DeleteNamespaceResponse.parser());
    await(response.getProcId(), "deleting namespace " + namespace);
  }

  /** Takes {@code table} offline: reads and writes are refused until it is enabled. */
  public void disableTable(String table) throws IOException {
    MasterProtos.DisableTableResponse response =
        call(
            MASTER,
            "DisableTable",
            table,
            MasterProtos.DisableTableRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .build(),
            MasterProtos.DisableTableResponse.parser());
    await(response.getProcId(), "disabling " + table);
  }

  public void enableTable(String table) throws IOException {
    MasterProtos.EnableTableResponse response =
        call(
            MASTER,
            "EnableTable",
            table,
            MasterProtos.EnableTableRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .build(),
            MasterProtos.EnableTableResponse.parser());
    await(response.getProcId(), "enabling " + table);
  }

  /** Empties a disabled table, keeping its schema; it comes back enabled. */
  public void truncateTable(String table) throws IOException {
    MasterProtos.TruncateTableResponse response =
        call(
            MASTER,
            "truncateTable",
            table,
            MasterProtos.TruncateTableRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .setPreserveSplits(true)
                .build(),
            MasterProtos.TruncateTableResponse.parser());
    await(response.getProcId(), "truncating " + table);
    locator.forget(table);
  }

  @Override
  public void addFamily(String table, ColumnFamilyDescriptor family) throws IOException {
    MasterProtos.AddColumnResponse response =
        call(
            MASTER,
            "AddColumn",
            table,
            MasterProtos.AddColumnRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .setColumnFamilies(Schemas.family(family))
                .build(),
            MasterProtos.AddColumnResponse.parser());
    await(response.getProcId(), "adding family " + family.name() + " to " + table);
  }

  @Override
  public void deleteFamily(String table, String family) throws IOException {
    MasterProtos.DeleteColumnResponse response =
        call(
            MASTER,
            "DeleteColumn",
            table,
            MasterProtos.DeleteColumnRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .setColumnName(ByteString.copyFromUtf8(family))
                .build(),
            MasterProtos.DeleteColumnResponse.parser());
    await(response.getProcId(), "deleting family " + family + " of " + table);
  }

  @Override
  public void modifyFamily(String table, ColumnFamilyDescriptor family) throws IOException {
    MasterProtos.ModifyColumnResponse response =
        call(
            MASTER,
            "ModifyColumn",
            table,
            MasterProtos.ModifyColumnRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .setColumnFamilies(Schemas.family(family))
                .build(),
            MasterProtos.ModifyColumnResponse.parser());
    await(response.getProcId(), "modifying family " + family.name() + " of " + table);
  }

  @Override
  public void modifyTable(TableDescriptor descriptor) throws IOException {
    MasterProtos.ModifyTableResponse response =
        call(
            MASTER,
            "ModifyTable",
            descriptor.name(),
            MasterProtos.ModifyTableRequest.newBuilder()
                .setTableName(Schemas.tableName(descriptor.name()))
                .setTableSchema(Schemas.schema(descriptor))
                .build(),
            MasterProtos.ModifyTableResponse.parser());
    await(response.getProcId(), "modifying table " + descriptor.name());
  }

  @Override
  public void dropTable(String table) throws IOException {
    try {
      disableTable(table);
    } catch (RemoteException e) {
      if (!e.is("TableNotEnabledException")) {
        throw e;
      }
    }
    MasterProtos.DeleteTableResponse response =
        call(
            MASTER,
            "DeleteTable",
            table,
            MasterProtos.DeleteTableRequest.newBuilder()
                .setTableName(Schemas.tableName(table))
                .build(),
            MasterProtos.DeleteTableResponse.parser());
    await(response.getProcId(), "deleting " + table);
    locator.forget(table);
  }

  /** Flushes each region of the table in turn, as HBase's client flushes region by region. */
  @Override
  public void flush(String table) throws IOException {
    for (RegionLocator.Located region : locator.regions(table)) {
      flushRegion(table, region.name());
    }
  }

  @Override
  public void flushRegion(byte[] regionName) throws IOException {
    flushRegion(null, regionName);
  }

  private void flushRegion(String table, byte[] regionName) throws IOException {
    call(
        ADMIN,
        "FlushRegion",
        table,
        AdminProtos.FlushRegionRequest.newBuilder().setRegion(Protos.region(regionName)).build(),
        AdminProtos.FlushRegionResponse.parser());
  }

  @Override
  public void compactRegion(byte[] regionName, boolean major) throws IOException {
    compactRegion(null, regionName, major);
  }

  @Override
  public void compact(String table) throws IOException {
    compact(table, false);
  }

  @Override
  public void majorCompact(String table) throws IOException {
    compact(table, true);
  }

  private void compact(String table, boolean major) throws IOException {
    for (RegionLocator.Located region : locator.regions(table)) {
      compactRegion(table, region.name(), major);
    }
  }

  private void compactRegion(String table, byte[] regionName, boolean major) throws IOException {
    call(
        ADMIN,
        "CompactRegion",
        table,
        AdminProtos.CompactRegionRequest.newBuilder()
            .setRegion(Protos.region(regionName))
            .setMajor(major)
            .build(),
        AdminProtos.CompactRegionResponse.parser());
  }
}
