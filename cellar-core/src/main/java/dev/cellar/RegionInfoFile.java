package dev.cellar;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A region directory's {@value #NAME}: the region's identity in HBase's own file, so that the
 * regions of a table can be told from its directories alone (a repair whose descriptor is lost) and
 * HBase's tools read them as HBase's.
 *
 * <p><b>Layout</b> (HBase's {@code HRegionFileSystem}): the 4 bytes {@code PBUF}, then HBase's
 * {@code RegionInfo} message preceded by its length as a varint:
 *
 * <pre>
 * RegionInfo := 1: region_id uint64 | 2: table_name TableName | 3: start_key bytes
 *             | 4: end_key bytes | 5: offline bool (false) | 6: split bool (false)
 *             | 7: replica_id int32 (0)
 * TableName  := 1: namespace bytes ("default" for the default namespace) | 2: qualifier bytes
 * </pre>
 *
 * <p>The descriptor is the record of a table's regions; this file repeats it and is written when a
 * region opens without it (or with another), to {@code .regioninfo.tmp}, forced and renamed, so a
 * crash leaves the old file, the new one or none, and the next open writes it again. Stateless.
 */
final class RegionInfoFile {

  static final String NAME = ".regioninfo";
  private static final byte[] MAGIC = "PBUF".getBytes(StandardCharsets.US_ASCII);
  private static final String DEFAULT_NAMESPACE = "default";

  private RegionInfoFile() {}

  /** Writes {@code region}'s file in {@code directory} unless it holds that already. */
  static void ensure(Storage storage, Path directory, RegionInfo region) throws IOException {
    byte[] content = encode(region);
    Path file = directory.resolve(NAME);
    Path temporary = directory.resolve(NAME + ".tmp");
    storage.deleteIfExists(temporary);
    if (storage.isFile(file) && Arrays.equals(storage.readAllBytes(file), content)) {
      return;
    }
    try (AppendOnlyFile out = storage.create(temporary)) {
      out.append(content, 0, content.length);
      out.sync();
    }
    storage.rename(temporary, file);
    storage.syncDirectory(directory);
  }

  /**
   * The region in {@code directory}'s file.
   *
   * @throws IOException naming the file if it is missing, not HBase's layout or cut short
   */
  static RegionInfo read(Storage storage, Path directory) throws IOException {
    Path file = directory.resolve(NAME);
    byte[] content = storage.readAllBytes(file);
    if (content.length < MAGIC.length
        || !Arrays.equals(content, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IOException(storage.describe(file) + ": does not start with PBUF");
    }
    try {
      CodedInputStream in =
          CodedInputStream.newInstance(content, MAGIC.length, content.length - MAGIC.length);
      int length = in.readRawVarint32();
      int limit = in.pushLimit(length);
      long id = -1;
      String namespace = DEFAULT_NAMESPACE;
      String qualifier = null;
      byte[] start = new byte[0];
      byte[] end = new byte[0];
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        switch (WireFormat.getTagFieldNumber(tag)) {
          case 1 -> id = in.readUInt64();
          case 2 -> {
            int nameLimit = in.pushLimit(in.readRawVarint32());
            for (int nameTag = in.readTag(); nameTag != 0; nameTag = in.readTag()) {
              switch (WireFormat.getTagFieldNumber(nameTag)) {
                case 1 -> namespace = in.readBytes().toStringUtf8();
                case 2 -> qualifier = in.readBytes().toStringUtf8();
                default -> in.skipField(nameTag);
              }
            }
            in.popLimit(nameLimit);
          }
          case 3 -> start = in.readByteArray();
          case 4 -> end = in.readByteArray();
          default -> in.skipField(tag);
        }
      }
      in.popLimit(limit);
      if (id < 0 || qualifier == null) {
        throw new IOException(storage.describe(file) + ": no region id or table name");
      }
      String table = namespace.equals(DEFAULT_NAMESPACE) ? qualifier : namespace + ":" + qualifier;
      return RegionInfo.of(table, start, end, id);
    } catch (IOException | IllegalArgumentException e) {
      throw new IOException(storage.describe(file) + ": not a RegionInfo: " + e.getMessage(), e);
    }
  }

  /** The file's bytes for {@code region}. */
  static byte[] encode(RegionInfo region) throws IOException {
    String table = region.table();
    int colon = table.indexOf(':');
    String namespace = colon < 0 ? DEFAULT_NAMESPACE : table.substring(0, colon);
    String qualifier = table.substring(colon + 1);
    ByteArrayOutputStream name = new ByteArrayOutputStream();
    CodedOutputStream nameOut = CodedOutputStream.newInstance(name);
    nameOut.writeByteArray(1, namespace.getBytes(StandardCharsets.UTF_8));
    nameOut.writeByteArray(2, qualifier.getBytes(StandardCharsets.UTF_8));
    nameOut.flush();
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(message);
    out.writeUInt64(1, region.regionId());
    out.writeByteArray(2, name.toByteArray());
    out.writeByteArray(3, region.startKey());
    out.writeByteArray(4, region.endKey());
    out.writeBool(5, false);
    out.writeBool(6, false);
    out.writeInt32(7, 0);
    out.flush();
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.writeBytes(MAGIC);
    CodedOutputStream framed = CodedOutputStream.newInstance(file);
    framed.writeUInt32NoTag(message.size());
    framed.flush();
    file.writeBytes(message.toByteArray());
    return file.toByteArray();
  }
}
