package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.nio.charset.StandardCharsets;

/**
 * The kinds of HFile blocks, each identified on disk by an 8-byte ASCII magic at the start of its
 * header, and the category the block cache accounts it under.
 */
public enum BlockType {
  DATA("DATABLK*", Category.DATA),
  ENCODED_DATA("DATABLKE", Category.DATA),
  LEAF_INDEX("IDXLEAF2", Category.INDEX),
  BLOOM_CHUNK("BLMFBLK2", Category.BLOOM),
  META("METABLKc", Category.META),
  INTERMEDIATE_INDEX("IDXINTE2", Category.INDEX),
  ROOT_INDEX("IDXROOT2", Category.INDEX),
  FILE_INFO("FILEINF2", Category.META),
  GENERAL_BLOOM_META("BLMFMET2", Category.BLOOM),
  DELETE_FAMILY_BLOOM_META("DFBLMET2", Category.BLOOM),
  TRAILER("TRABLK\"$", Category.META),
  INDEX_V1("IDXBLK)+", Category.INDEX);

  /** How the block cache groups block types (L1 holds INDEX, BLOOM and META; L2 holds DATA). */
  public enum Category {
    DATA,
    INDEX,
    BLOOM,
    META
  }

  /** Length of every magic. */
  public static final int MAGIC_LENGTH = 8;

  private static final BlockType[] VALUES = values();

  private final byte[] magic;
  private final long magicAsLong;
  private final Category category;

  BlockType(String magic, Category category) {
    this.magic = magic.getBytes(StandardCharsets.US_ASCII);
    if (this.magic.length != MAGIC_LENGTH) {
      throw new IllegalArgumentException("magic must be " + MAGIC_LENGTH + " bytes: " + magic);
    }
    long packed = 0;
    for (byte b : this.magic) {
      packed = (packed << 8) | (b & 0xFF);
    }
    this.magicAsLong = packed;
    this.category = category;
  }

  public Category category() {
    return category;
  }

  /** True for DATA and ENCODED_DATA blocks. */
  public boolean isData() {
    return category == Category.DATA;
  }

  /** A copy of the 8 magic bytes. */
  public byte[] magic() {
    return magic.clone();
  }

  /** The magic as one big-endian long, as it reads from a buffer. */
  long magicAsLong() {
    return magicAsLong;
  }

  /** Writes the magic at {@code index}. */
  public void writeMagic(Buf buf, int index) {
    buf.putLong(index, magicAsLong);
  }

  /** The type whose magic is at {@code index} of {@code buf}, or {@code null} if none matches. */
  public static BlockType fromMagic(Buf buf, int index) {
    long magic = buf.getLong(index);
    for (BlockType type : VALUES) {
      if (type.magicAsLong == magic) {
        return type;
      }
    }
    return null;
  }

  /** The 8 bytes at {@code index} as printable text, for error messages. */
  static String describeMagic(Buf buf, int index) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < MAGIC_LENGTH; i++) {
      int b = buf.getUnsignedByte(index + i);
      if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
        out.append((char) b);
      } else {
        out.append(String.format("\\x%02X", b));
      }
    }
    return out.append('"').toString();
  }

  /** The magic as printable text. */
  public String magicString() {
    return new String(magic, StandardCharsets.US_ASCII);
  }
}
