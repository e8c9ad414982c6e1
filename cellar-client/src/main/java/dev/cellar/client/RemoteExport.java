package dev.cellar.client;

import dev.cellar.TableExport.Remote;
import dev.cellar.client.rpc.RpcClient;
import dev.cellar.client.rpc.RpcResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.ListValue;
import org.apache.hbase.thirdparty.com.google.protobuf.Struct;
import org.apache.hbase.thirdparty.com.google.protobuf.Value;

/**
 * Asks a {@code cellar serve} for a point-in-time export of a table in HBase's bulk-load layout,
 * written by the server into a directory of its own (a path on its machine, or a URI such as {@code
 * hdfs://...}): one master coprocessor endpoint call, as {@link Remote} describes. The call is not
 * retried (a second attempt would find the first one's files) and may take as long as the client's
 * operation timeout ({@code hbase.client.operation.timeout}). Thread-safe.
 */
public final class RemoteExport {

  /** One exported family: its files (as the server names them) and how many cells they hold. */
  public record Family(String family, List<String> files, long cells) {}

  /** What the server exported, and its progress lines in order. */
  public record Result(List<Family> families, List<String> progress) {}

  private final RpcClient rpc;
  private final ClientSettings settings;

  RemoteExport(RpcClient rpc, ClientSettings settings) {
    this.rpc = rpc;
    this.settings = settings;
  }

  /**
   * Exports {@code table} into {@code out} on the server's side, cutting files at {@code
   * splitKeys}.
   *
   * @throws IOException with the server's one-line reason (no such table, an output directory that
   *     is not empty, a file system it cannot reach), or if the call fails or times out
   */
  public Result export(String table, String out, List<byte[]> splitKeys) throws IOException {
    ListValue.Builder keys = ListValue.newBuilder();
    for (byte[] key : splitKeys) {
      keys.addValues(Value.newBuilder().setStringValue(Base64.getEncoder().encodeToString(key)));
    }
    Struct arguments =
        Struct.newBuilder()
            .putFields(Remote.TABLE, Value.newBuilder().setStringValue(table).build())
            .putFields(Remote.OUT, Value.newBuilder().setStringValue(out).build())
            .putFields(Remote.SPLIT_KEYS, Value.newBuilder().setListValue(keys).build())
            .build();
    ClientProtos.CoprocessorServiceRequest request =
        ClientProtos.CoprocessorServiceRequest.newBuilder()
            .setRegion(
                HBaseProtos.RegionSpecifier.newBuilder()
                    .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                    .setValue(ByteString.EMPTY))
            .setCall(
                ClientProtos.CoprocessorServiceCall.newBuilder()
                    .setRow(ByteString.EMPTY)
                    .setServiceName(Remote.ENDPOINT_SERVICE)
                    .setMethodName(Remote.ENDPOINT_METHOD)
                    .setRequest(arguments.toByteString()))
            .build();
    RpcResponse<ClientProtos.CoprocessorServiceResponse> response =
        Retrier.await(
            rpc.call(
                "MasterService",
                "ExecMasterService",
                request,
                null,
                ClientProtos.CoprocessorServiceResponse.parser(),
                settings.operationTimeoutMillis()));
    response.release();
    Struct answer = Struct.parseFrom(response.message().getValue().getValue());
    List<Family> families = new ArrayList<>();
    for (Value family : answer.getFieldsOrThrow(Remote.FAMILIES).getListValue().getValuesList()) {
      Struct fields = family.getStructValue();
      List<String> files =
          fields.getFieldsOrThrow(Remote.FILES).getListValue().getValuesList().stream()
              .map(Value::getStringValue)
              .toList();
      families.add(
          new Family(
              fields.getFieldsOrThrow(Remote.FAMILY).getStringValue(),
              files,
              (long) fields.getFieldsOrThrow(Remote.CELLS).getNumberValue()));
    }
    List<String> progress =
        answer.getFieldsOrThrow(Remote.PROGRESS).getListValue().getValuesList().stream()
            .map(Value::getStringValue)
            .toList();
    return new Result(List.copyOf(families), progress);
  }
}
