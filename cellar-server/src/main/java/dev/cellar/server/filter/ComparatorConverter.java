package dev.cellar.server.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.filter.BigDecimalComparator;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryComponentComparator;
import dev.cellar.filter.BinaryPrefixComparator;
import dev.cellar.filter.BitComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.LongComparator;
import dev.cellar.filter.NullComparator;
import dev.cellar.filter.RegexStringComparator;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.server.rpc.RpcException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Turns the comparators HBase's client sends (a class name and the comparator's own protobuf) into
 * Cellar's: every comparator HBase 2.6.1 ships (Binary, BinaryPrefix, Substring, RegexString with
 * its flags and charset, Bit, Null, Long, BigDecimal, BinaryComponent). RegexStringComparator's
 * JONI engine, whose matching differs from Java's, is refused, as is any other class, with a
 * DoNotRetry error that names it. As HBase does, an unknown charset name keeps UTF-8. Stateless.
 */
final class ComparatorConverter {

  private static final String PACKAGE = "org.apache.hadoop.hbase.filter.";

  private ComparatorConverter() {}

  static ByteArrayComparable comparator(ComparatorProtos.Comparator proto) throws RpcException {
    String name = proto.getName();
    byte[] body = proto.getSerializedComparator().toByteArray();
    String simple = name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : "";
    try {
      return switch (simple) {
        case "BinaryComparator" ->
            new BinaryComparator(
                ComparatorProtos.BinaryComparator.parseFrom(body)
                    .getComparable()
                    .getValue()
                    .toByteArray());
        case "BinaryPrefixComparator" ->
            new BinaryPrefixComparator(
                ComparatorProtos.BinaryPrefixComparator.parseFrom(body)
                    .getComparable()
                    .getValue()
                    .toByteArray());
        case "SubstringComparator" ->
            new SubstringComparator(
                ComparatorProtos.SubstringComparator.parseFrom(body).getSubstr());
        case "RegexStringComparator" ->
            regex(ComparatorProtos.RegexStringComparator.parseFrom(body));
        case "BitComparator" -> {
          ComparatorProtos.BitComparator bit = ComparatorProtos.BitComparator.parseFrom(body);
          yield new BitComparator(
              bit.getComparable().getValue().toByteArray(),
              BitComparator.BitwiseOp.valueOf(bit.getBitwiseOp().name()));
        }
        case "NullComparator" -> {
          ComparatorProtos.NullComparator.parseFrom(body);
          yield new NullComparator();
        }
        case "LongComparator" -> {
          byte[] value =
              ComparatorProtos.LongComparator.parseFrom(body)
                  .getComparable()
                  .getValue()
                  .toByteArray();
          if (value.length != Long.BYTES) {
            throw RpcException.doNotRetry(
                "comparator " + name + ": its value has " + value.length + " bytes, not 8");
          }
          yield new LongComparator(Bytes.toLong(value, 0));
        }
        case "BigDecimalComparator" ->
            new BigDecimalComparator(
                decimal(
                    name,
                    ComparatorProtos.BigDecimalComparator.parseFrom(body)
                        .getComparable()
                        .getValue()
                        .toByteArray()));
        case "BinaryComponentComparator" -> {
          ComparatorProtos.BinaryComponentComparator component =
              ComparatorProtos.BinaryComponentComparator.parseFrom(body);
          yield new BinaryComponentComparator(
              component.getValue().toByteArray(), component.getOffset());
        }
        default ->
            throw RpcException.doNotRetry("comparator " + name + " is not supported by Cellar");
      };
    } catch (InvalidProtocolBufferException e) {
      throw RpcException.doNotRetry(
          "comparator " + name + " could not be parsed: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry("comparator " + name + ": " + e.getMessage());
    }
  }

  private static ByteArrayComparable regex(ComparatorProtos.RegexStringComparator proto)
      throws RpcException {
    if (proto.hasEngine() && !proto.getEngine().equals("JAVA")) {
      throw RpcException.doNotRetry(
          "RegexStringComparator with the "
              + proto.getEngine()
              + " engine is not supported by Cellar; use the JAVA engine");
    }
    try {
      return new RegexStringComparator(
          proto.getPattern(), proto.getPatternFlags(), charset(proto.getCharset()));
    } catch (PatternSyntaxException e) {
      throw RpcException.doNotRetry("RegexStringComparator: " + e.getMessage());
    }
  }

  private static Charset charset(String name) {
    if (name.isEmpty()) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalArgumentException e) {
      return StandardCharsets.UTF_8;
    }
  }

  private static BigDecimal decimal(String name, byte[] value) throws RpcException {
    if (value.length < Integer.BYTES + 1) {
      throw RpcException.doNotRetry(
          "comparator " + name + ": its value has " + value.length + " bytes, not a decimal");
    }
    return new BigDecimal(
        new BigInteger(value, Integer.BYTES, value.length - Integer.BYTES), Bytes.toInt(value, 0));
  }
}
