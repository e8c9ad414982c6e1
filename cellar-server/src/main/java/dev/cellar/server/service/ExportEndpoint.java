package dev.cellar.server.service;

import dev.cellar.BulkLoadException;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.TableExport;
import dev.cellar.TableExport.Remote;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.hbase.thirdparty.com.google.protobuf.ListValue;
import org.apache.hbase.thirdparty.com.google.protobuf.Struct;
import org.apache.hbase.thirdparty.com.google.protobuf.Value;

/**
 * Export while serving: {@code cellar serve} holds the database's lock, so a point-in-time copy of
 * a table in HBase's bulk-load layout is made by the server itself ({@link TableExport}: the table
 * flushed, its file set pinned, writes going on meanwhile) when a client asks through HBase's
 * master coprocessor endpoint call, {@code MasterService.ExecMasterService}, to the service and
 * method {@link Remote} names.
 *
 * <p><b>Why that call.</b> HBase's protocol leaves it for exactly this, operations a master offers
 * beyond its fixed API: it travels on the same port and connection as every other admin call, a
 * program on HBase's client can send it ({@code Admin.coprocessorService()} with a service
 * descriptor of that name), and a client that does not know it never sends it. HBase's snapshot
 * calls were the other candidate, but a snapshot is a set of references inside the root directory
 * that HBase's {@code ExportSnapshot} then copies, not files a bulk load takes. The request and
 * response are {@code google.protobuf.Struct}s, a message both sides already have, so no new {@code
 * .proto} is needed.
 *
 * <p><b>Where the files go.</b> The output directory is the server's: a path on its machine or a
 * URI (HDFS) its storage providers serve, resolved with the server's settings, and only under the
 * directories the operator named ({@link ExportRoots}); none are named by default. The call runs on
 * a handler thread for as long as the export takes; the client's RPC timeout must allow for it.
 * Stateless apart from the database; thread-safe as {@link TableExport} is.
 */
public final class ExportEndpoint {

  private final Cellar cellar;
  private final Catalog catalog;
  private final CellarConfig config;
  private final ExportRoots roots;

  public ExportEndpoint(Cellar cellar, Catalog catalog, CellarConfig config) {
    this.cellar = cellar;
    this.catalog = catalog;
    this.config = config;
    this.roots = ExportRoots.of(config.get(ExportRoots.KEY));
  }

  /**
   * Answers an {@code ExecMasterService} call.
   *
   * @throws RpcException (not retried) for an endpoint other than {@link Remote}'s, a malformed
   *     request, an unknown table or a refused output directory
   */
  CoprocessorServiceResponse call(CoprocessorServiceRequest request) throws Exception {
    CoprocessorServiceCall call = request.getCall();
    if (!call.getServiceName().equals(Remote.ENDPOINT_SERVICE)
        || !call.getMethodName().equals(Remote.ENDPOINT_METHOD)) {
      throw RpcException.doNotRetry(
          "org.apache.hadoop.hbase.exceptions.UnknownProtocolException",
          "no master coprocessor endpoint "
              + call.getServiceName()
              + "."
              + call.getMethodName()
              + "; this server offers "
              + Remote.ENDPOINT_SERVICE
              + "."
              + Remote.ENDPOINT_METHOD);
    }
    Struct arguments;
    try {
      arguments = Struct.parseFrom(call.getRequest());
    } catch (InvalidProtocolBufferException e) {
      throw RpcException.doNotRetry(
          "export: the request is not a google.protobuf.Struct: " + e.getMessage());
    }
    String table = string(arguments, Remote.TABLE);
    String out = string(arguments, Remote.OUT);
    roots.check(out);
    List<byte[]> splitKeys = new ArrayList<>();
    Value keys = arguments.getFieldsOrDefault(Remote.SPLIT_KEYS, null);
    if (keys != null) {
      for (Value key : keys.getListValue().getValuesList()) {
        splitKeys.add(Base64.getDecoder().decode(key.getStringValue()));
      }
    }
    Catalog.Entry entry = catalog.byName(table);
    if (entry == null) {
      throw RpcException.tableNotFound(table);
    }
    List<String> progress = Collections.synchronizedList(new ArrayList<>());
    try {
      return answer(
          TableExport.export(cellar, entry.name(), out, config, splitKeys, progress::add),
          progress);
    } catch (BulkLoadException | IllegalArgumentException e) {
      throw RpcException.doNotRetry("export of " + table + " to " + out + ": " + e.getMessage());
    } catch (IOException e) {
      throw RpcException.doNotRetry(
          RpcException.IO, "export of " + table + " to " + out + ": " + e.getMessage());
    }
  }

  private static String string(Struct arguments, String field) throws RpcException {
    Value value = arguments.getFieldsOrDefault(field, null);
    if (value == null || value.getStringValue().isEmpty()) {
      throw RpcException.doNotRetry("export: the request has no '" + field + "'");
    }
    return value.getStringValue();
  }

  private static CoprocessorServiceResponse answer(
      List<TableExport.Family> families, List<String> progress) {
    ListValue.Builder exported = ListValue.newBuilder();
    for (TableExport.Family family : families) {
      ListValue.Builder files = ListValue.newBuilder();
      for (String file : family.files()) {
        files.addValues(Value.newBuilder().setStringValue(file));
      }
      exported.addValues(
          Value.newBuilder()
              .setStructValue(
                  Struct.newBuilder()
                      .putFields(
                          Remote.FAMILY, Value.newBuilder().setStringValue(family.name()).build())
                      .putFields(Remote.FILES, Value.newBuilder().setListValue(files).build())
                      .putFields(
                          Remote.CELLS,
                          Value.newBuilder().setNumberValue(family.cells()).build())));
    }
    ListValue.Builder lines = ListValue.newBuilder();
    progress.forEach(line -> lines.addValues(Value.newBuilder().setStringValue(line)));
    Struct result =
        Struct.newBuilder()
            .putFields(Remote.FAMILIES, Value.newBuilder().setListValue(exported).build())
            .putFields(Remote.PROGRESS, Value.newBuilder().setListValue(lines).build())
            .build();
    return CoprocessorServiceResponse.newBuilder()
        .setRegion(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.EMPTY))
        .setValue(
            NameBytesPair.newBuilder()
                .setName(Struct.getDescriptor().getFullName())
                .setValue(result.toByteString()))
        .build();
  }
}
