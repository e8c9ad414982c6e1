package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;

/**
 * The hash functions a bloom filter may use, with the codes HBase stores in the bloom meta block
 * and the names of its {@code hbase.hash.type} setting. Immutable and thread-safe.
 *
 * <p>The functions themselves are HBase's, bit for bit, and live in {@link Bytes}.
 */
public enum HashType {
  /** Bob Jenkins' lookup3 {@code hashlittle}: code 0, {@code jenkins}. */
  JENKINS(0, "jenkins"),
  /** MurmurHash 2 with HBase's sign-extended tail: code 1, {@code murmur}, the default. */
  MURMUR(1, "murmur"),
  /** MurmurHash3 x86_32: code 2, {@code murmur3}. */
  MURMUR3(2, "murmur3");

  private static final HashType[] BY_CODE = values();

  private final int code;
  private final String configName;

  HashType(int code, String configName) {
    this.code = code;
    this.configName = configName;
  }

  /** The code stored in the bloom meta block. */
  public int code() {
    return code;
  }

  /** The value of {@code hbase.hash.type} that selects this function. */
  public String configName() {
    return configName;
  }

  /**
   * The function with the given meta-block code.
   *
   * @throws IllegalArgumentException if HBase defines no function with that code
   */
  public static HashType fromCode(int code) {
    HashType type = find(code);
    if (type == null) {
      throw new IllegalArgumentException(
          "unknown bloom hash type " + code + ": expected 0 (jenkins), 1 (murmur) or 2 (murmur3)");
    }
    return type;
  }

  /** The function with the given code, or {@code null}. */
  static HashType find(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  /**
   * The function named by an {@code hbase.hash.type} value, compared ignoring case as HBase does.
   *
   * @throws IllegalArgumentException if the name is none of {@code jenkins}, {@code murmur}, {@code
   *     murmur3}
   */
  public static HashType parse(String name) {
    for (HashType type : BY_CODE) {
      if (type.configName.equalsIgnoreCase(name.trim())) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "unknown hash type '" + name + "': expected jenkins, murmur or murmur3");
  }

  /** Hashes a range of an array with the given seed. */
  public int hash(byte[] bytes, int offset, int length, int seed) {
    return switch (this) {
      case JENKINS -> Bytes.jenkinsHash(bytes, offset, length, seed);
      case MURMUR -> Bytes.murmurHash(bytes, offset, length, seed);
      case MURMUR3 -> Bytes.murmurHash3(bytes, offset, length, seed);
    };
  }

  /** Hashes a range of a segment with the given seed. */
  public int hash(MemorySegment segment, long offset, int length, int seed) {
    return switch (this) {
      case JENKINS -> Bytes.jenkinsHash(segment, offset, length, seed);
      case MURMUR -> Bytes.murmurHash(segment, offset, length, seed);
      case MURMUR3 -> Bytes.murmurHash3(segment, offset, length, seed);
    };
  }
}
