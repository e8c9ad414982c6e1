package dev.cellar.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.TracingProtos.RPCTInfo;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestHead}: from a frame's bytes it reads what HBase's client puts in a request header
 * (call id, method, request flag, cell block length, priority, timeout; trace info and attributes
 * skipped) and the request message's place, as protobuf parses them; a header with a field it does
 * not know, or cut short anywhere, is refused so that it is parsed as a message.
 */
class RequestHeadTest {

  private static RequestHeader header() {
    return RequestHeader.newBuilder()
        .setCallId(300_000)
        .setTraceInfo(RPCTInfo.newBuilder())
        .setMethodName("Get")
        .setRequestParam(true)
        .setCellBlockMeta(RPCProtos.CellBlockMeta.newBuilder().setLength(77))
        .setPriority(200)
        .setTimeout(60_000)
        .addAttribute(
            org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair.newBuilder()
                .setName("a")
                .setValue(ByteString.copyFromUtf8("b")))
        .build();
  }

  /** A frame's start: the delimited header, the delimited param, then a cell block of junk. */
  private static byte[] frame(RequestHeader header, byte[] param) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    header.writeDelimitedTo(out);
    if (header.getRequestParam()) {
      org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream coded =
          org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream.newInstance(out);
      coded.writeUInt32NoTag(param.length);
      coded.flush();
      out.write(param);
    }
    out.write(new byte[77]);
    return out.toByteArray();
  }

  @Test
  void whatTheClientSendsIsReadAsProtobufReadsIt() throws IOException {
    byte[] param = "0123456789".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = frame(header(), param);
    ByteBuffer buffer =
        ByteBuffer.allocateDirect(bytes.length + 3).position(3).put(bytes).position(3);
    RequestHead head = new RequestHead();
    assertTrue(head.readFrame(buffer, 3, 3 + bytes.length));
    assertEquals(300_000, head.callId);
    byte[] method = new byte[head.methodLength];
    buffer.get(head.methodOffset, method);
    assertEquals("Get", new String(method, StandardCharsets.UTF_8));
    assertTrue(head.requestParam);
    assertEquals(77, head.cellBlockLength);
    assertEquals(200, head.priority);
    assertEquals(60_000, head.timeout);
    assertEquals(param.length, head.paramLength);
    byte[] read = new byte[head.paramLength];
    buffer.get(head.paramStart, read);
    assertEquals("0123456789", new String(read, StandardCharsets.UTF_8));
  }

  @Test
  void unknownFieldsAndCutHeadersAreLeftToProtobuf() throws IOException {
    RequestHead head = new RequestHead();
    byte[] unknown =
        frame(
            header().toBuilder()
                .setUnknownFields(
                    UnknownFieldSet.newBuilder()
                        .addField(20, UnknownFieldSet.Field.newBuilder().addVarint(1).build())
                        .build())
                .build(),
            new byte[1]);
    assertFalse(head.readFrame(ByteBuffer.wrap(unknown), 0, unknown.length));
    byte[] whole = frame(header(), new byte[4]);
    int headerAndParam = whole.length - 77;
    for (int cut = 0; cut < headerAndParam; cut++) {
      byte[] shorter = Arrays.copyOf(whole, cut);
      assertFalse(head.readFrame(ByteBuffer.wrap(shorter), 0, shorter.length), "cut at " + cut);
    }
    assertTrue(head.readFrame(ByteBuffer.wrap(whole), 0, whole.length));
  }
}
