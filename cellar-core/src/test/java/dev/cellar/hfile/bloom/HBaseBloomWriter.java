package dev.cellar.hfile.bloom;

import dev.cellar.schema.BloomType;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparatorImpl;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.hfile.CompoundBloomFilterWriter;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.util.BloomContext;
import org.apache.hadoop.hbase.util.RowBloomContext;
import org.apache.hadoop.hbase.util.RowColBloomContext;
import org.apache.hadoop.hbase.util.RowPrefixFixedLengthBloomContext;

/**
 * HBase's own bloom writing path, driven the way its {@code StoreFileWriter} and {@code
 * HFileWriterImpl} drive it: a bloom context per cell, inline-block polls at data-block boundaries,
 * a closing poll, then the meta writer. The {@code HFile.Writer} the contexts report {@code
 * LAST_BLOOM_KEY} to is a proxy that records it.
 */
final class HBaseBloomWriter {

  /** One chunk HBase wrote. */
  record Chunk(byte[] payload, long offset, int onDiskSize) {}

  private final CompoundBloomFilterWriter writer;
  private final BloomContext context;
  private final boolean deleteFamily;
  private final List<Chunk> chunks = new ArrayList<>();
  private final HFile.Writer fileInfoRecorder;
  private byte[] lastBloomKey;
  private long deleteFamilyCount;

  /**
   * @param type the general bloom type, or {@code null} for the delete-family bloom
   */
  HBaseBloomWriter(BloomType type, BloomConfig config) {
    this.deleteFamily = type == null;
    org.apache.hadoop.hbase.regionserver.BloomType hbaseType =
        deleteFamily
            ? org.apache.hadoop.hbase.regionserver.BloomType.ROW
            : org.apache.hadoop.hbase.regionserver.BloomType.valueOf(type.name());
    float errorRate = config.errorRate();
    if (hbaseType == org.apache.hadoop.hbase.regionserver.BloomType.ROWCOL) {
      // BloomFilterFactory.createGeneralBloomAtWrite, verbatim arithmetic.
      errorRate = (float) (1 - Math.sqrt(1 - errorRate));
    }
    writer =
        new CompoundBloomFilterWriter(
            config.chunkByteSizeHint(),
            errorRate,
            config.hashType().code(),
            config.maxFold(),
            false,
            hbaseType == org.apache.hadoop.hbase.regionserver.BloomType.ROWCOL
                ? CellComparatorImpl.COMPARATOR
                : null,
            hbaseType);
    context =
        switch (hbaseType) {
          case ROWCOL -> new RowColBloomContext(writer, CellComparatorImpl.COMPARATOR);
          case ROWPREFIX_FIXED_LENGTH ->
              new RowPrefixFixedLengthBloomContext(
                  writer, CellComparatorImpl.COMPARATOR, config.prefixLength());
          default -> new RowBloomContext(writer, CellComparatorImpl.COMPARATOR);
        };
    fileInfoRecorder =
        (HFile.Writer)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {HFile.Writer.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("appendFileInfo")) {
                    lastBloomKey = (byte[]) args[1];
                    return null;
                  }
                  throw new AssertionError(
                      "the bloom harness does not expect a call to " + method.getName());
                });
  }

  /** StoreFileWriter's appendGeneralBloomfilter / appendDeleteFamilyBloomFilter. */
  void add(Cell cell) throws IOException {
    if (deleteFamily) {
      if (!PrivateCellUtil.isDeleteFamily(cell) && !PrivateCellUtil.isDeleteFamilyVersion(cell)) {
        return;
      }
      deleteFamilyCount++;
    }
    context.writeBloom(cell);
  }

  /**
   * HFileWriterImpl.writeInlineBlocks: writes every ready chunk at offsets handed out by {@code
   * positions}.
   */
  void poll(boolean closing, Positions positions) throws IOException {
    while (writer.shouldWriteBlock(closing)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      writer.writeInlineBlock(new DataOutputStream(bytes));
      long offset = positions.next(bytes.size());
      int onDiskSize = positions.onDiskSize(bytes.size());
      writer.blockWritten(offset, onDiskSize, bytes.size());
      chunks.add(new Chunk(bytes.toByteArray(), offset, onDiskSize));
    }
  }

  /** StoreFileWriter.close: LAST_BLOOM_KEY, closing poll, meta payload (null without keys). */
  byte[] close(Positions positions) throws IOException {
    if (writer.getKeyCount() > 0 && !deleteFamily) {
      context.addLastBloomKey(fileInfoRecorder);
    }
    poll(true, positions);
    if (writer.getKeyCount() == 0) {
      return null;
    }
    ByteArrayOutputStream meta = new ByteArrayOutputStream();
    try {
      writer.getMetaWriter().write(new DataOutputStream(meta));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return meta.toByteArray();
  }

  List<Chunk> chunks() {
    return chunks;
  }

  byte[] lastBloomKey() {
    return lastBloomKey;
  }

  long keyCount() {
    return writer.getKeyCount();
  }

  long deleteFamilyCount() {
    return deleteFamilyCount;
  }

  /** Hands out strictly increasing fake block offsets, deterministically from a payload size. */
  static final class Positions {

    private static final int HEADER_AND_CHECKSUMS = 33 + 4;

    private long next = 1000;

    long next(int payloadSize) {
      long offset = next;
      next += onDiskSize(payloadSize) + 4096;
      return offset;
    }

    int onDiskSize(int payloadSize) {
      return payloadSize + HEADER_AND_CHECKSUMS;
    }
  }
}
