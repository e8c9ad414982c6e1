package dev.cellar.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * A bare-socket client of HBase's RPC protocol for tests: writes preambles, headers and frames byte
 * by byte as HBase's client lays them out (or deliberately not), and reads response frames.
 */
final class RawRpcClient implements AutoCloseable {

  static final String KEY_VALUE_CODEC = "org.apache.hadoop.hbase.codec.KeyValueCodec";

  /** One response frame: its header, its message bytes (null on error) and its cell block. */
  record Response(ResponseHeader header, byte[] body, byte[] cells) {}

  private final Socket socket;
  private final DataOutputStream out;
  private final DataInputStream in;
  private int nextCallId;

  RawRpcClient(InetSocketAddress address) throws IOException {
    socket = new Socket(address.getAddress(), address.getPort());
    socket.setSoTimeout(10_000);
    socket.setTcpNoDelay(true);
    out = new DataOutputStream(new java.io.BufferedOutputStream(socket.getOutputStream()));
    in = new DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
  }

  /** A client that sent the ordinary preamble and a header for {@code service}. */
  static RawRpcClient connect(InetSocketAddress address, String service) throws IOException {
    RawRpcClient client = new RawRpcClient(address);
    client.raw("HBas".getBytes(StandardCharsets.US_ASCII));
    client.raw(new byte[] {0, 80});
    client.frame(
        ConnectionHeader.newBuilder()
            .setServiceName(service)
            .setCellBlockCodecClass(KEY_VALUE_CODEC)
            .build()
            .toByteArray());
    return client;
  }

  void raw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Writes {@code int32 length} and the payload. */
  void frame(byte[] payload) throws IOException {
    out.writeInt(payload.length);
    out.write(payload);
    out.flush();
  }

  /** Sends a call; returns its id. */
  int call(String method, Message request, byte[] cellBlock) throws IOException {
    return call(method, request, cellBlock, 0);
  }

  /** Sends a call whose header gives the client's timeout (none when 0); returns its id. */
  int call(String method, Message request, byte[] cellBlock, int timeoutMillis) throws IOException {
    int callId = nextCallId++;
    RequestHeader.Builder header =
        RequestHeader.newBuilder().setCallId(callId).setMethodName(method).setRequestParam(true);
    if (timeoutMillis > 0) {
      header.setTimeout(timeoutMillis);
    }
    if (cellBlock != null) {
      header.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBlock.length));
    }
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    header.build().writeDelimitedTo(frame);
    request.writeDelimitedTo(frame);
    if (cellBlock != null) {
      frame.write(cellBlock);
    }
    frame(frame.toByteArray());
    return callId;
  }

  /** Sends a call whose message is {@code param}'s bytes, whatever they are; returns its id. */
  int callRaw(String method, byte[] param, byte[] cellBlock) throws IOException {
    int callId = nextCallId++;
    RequestHeader.Builder header =
        RequestHeader.newBuilder().setCallId(callId).setMethodName(method).setRequestParam(true);
    if (cellBlock != null) {
      header.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBlock.length));
    }
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    header.build().writeDelimitedTo(frame);
    org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream length =
        org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream.newInstance(frame);
    length.writeUInt32NoTag(param.length);
    length.flush();
    frame.write(param);
    if (cellBlock != null) {
      frame.write(cellBlock);
    }
    frame(frame.toByteArray());
    return callId;
  }

  /** Reads one response frame. @throws EOFException when the server closed the connection */
  Response read() throws IOException {
    int length = in.readInt();
    byte[] frame = new byte[length];
    in.readFully(frame);
    CodedInputStream input = CodedInputStream.newInstance(frame);
    int limit = input.pushLimit(input.readRawVarint32());
    ResponseHeader header = ResponseHeader.parseFrom(input);
    input.popLimit(limit);
    if (header.hasException()) {
      return new Response(header, null, new byte[0]);
    }
    byte[] body = input.readBytes().toByteArray();
    byte[] cells = input.readRawBytes(frame.length - input.getTotalBytesRead());
    return new Response(header, body, cells);
  }

  /** Whether the server closed the connection (reads to the end, discarding). */
  boolean closedByServer() throws IOException {
    InputStream stream = in;
    try {
      while (stream.read() >= 0) {
        // discard what is left
      }
      return true;
    } catch (java.net.SocketException e) {
      return true;
    }
  }

  /** Drops the connection at once (a reset, unread responses discarded), as a crashed client. */
  void abort() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
