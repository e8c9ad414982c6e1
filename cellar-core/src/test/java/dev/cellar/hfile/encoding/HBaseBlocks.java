package dev.cellar.hfile.encoding;

import dev.cellar.schema.DataBlockEncoding;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.ByteArrayOutputStream;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoder;
import org.apache.hadoop.hbase.io.encoding.EncodingState;
import org.apache.hadoop.hbase.io.encoding.HFileBlockDefaultEncodingContext;
import org.apache.hadoop.hbase.io.encoding.NoneEncoder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;

/**
 * Encodes one data block with HBase 2.6's own encoders, the way its HFile block writer drives them:
 * a dummy 33-byte header in the stream, {@code startBlockEncoding}, one {@code encode} per cell,
 * {@code endBlockEncoding} patching the unencoded size into the written bytes. NONE goes through
 * HBase's {@code NoneEncoder}, as its no-op block encoder does.
 */
final class HBaseBlocks {

  /**
   * HBase's payload (without the block header) and, after each cell, the encoded and unencoded
   * sizes its encoding state reported.
   */
  record Encoded(byte[] payload, int[] encodedSizes, int[] unencodedSizes) {}

  private HBaseBlocks() {}

  static Encoded encode(DataBlockEncoding encoding, EncodingContext context, List<CellSpec> cells)
      throws IOException {
    HFileContext fileContext =
        new HFileContextBuilder()
            .withIncludesMvcc(context.includesMvcc())
            .withIncludesTags(context.includesTags())
            .withCompressTags(context.compressTags())
            .build();
    org.apache.hadoop.hbase.io.encoding.DataBlockEncoding hbaseEncoding =
        org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.valueOf(encoding.name());
    HFileBlockDefaultEncodingContext encodingContext =
        new HFileBlockDefaultEncodingContext(
            null, hbaseEncoding, HConstants.HFILEBLOCK_DUMMY_HEADER, fileContext);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(HConstants.HFILEBLOCK_DUMMY_HEADER);
    int[] encodedSizes = new int[cells.size()];
    int[] unencodedSizes = new int[cells.size()];
    if (encoding == DataBlockEncoding.NONE) {
      NoneEncoder encoder = new NoneEncoder(out, encodingContext);
      int size = 0;
      for (int i = 0; i < cells.size(); i++) {
        size += encoder.write(cells.get(i).toHBase());
        encodedSizes[i] = size;
        unencodedSizes[i] = size;
      }
    } else {
      DataBlockEncoder encoder = hbaseEncoding.getEncoder();
      encoder.startBlockEncoding(encodingContext, out);
      for (int i = 0; i < cells.size(); i++) {
        encoder.encode(cells.get(i).toHBase(), encodingContext, out);
        EncodingState state = encodingContext.getEncodingState();
        encodedSizes[i] = state.getEncodedDataSizeWritten();
        unencodedSizes[i] = state.getUnencodedDataSizeWritten();
      }
      out.flush();
      encoder.endBlockEncoding(encodingContext, out, bytes.getBuffer());
    }
    out.flush();
    byte[] payload =
        Arrays.copyOfRange(bytes.getBuffer(), HConstants.HFILEBLOCK_HEADER_SIZE, bytes.size());
    return new Encoded(payload, encodedSizes, unencodedSizes);
  }
}
