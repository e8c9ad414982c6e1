package dev.cellar.hfile.bloom;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import dev.cellar.schema.BloomType;
import java.util.Map;

/**
 * How a store file's bloom filters are sized and hashed, read from HBase's configuration keys.
 * Immutable and thread-safe.
 *
 * <p>Construction validates every value and throws {@link InvalidConfigException} naming the HBase
 * key, the value and the reason. Cellar's limits, where HBase has none: the chunk hint is at most
 * {@value #MAX_CHUNK_BYTE_SIZE_HINT} bytes and the fold factor at most {@value #MAX_FOLD}, so that
 * a chunk's bit count fits the int HBase's reader computes it in; the error rate is in (0, 1) and
 * must leave a chunk room for at least one key.
 *
 * @param errorRate the target false-positive rate, a float as in HBase ({@value #ERROR_RATE_KEY},
 *     default 0.01)
 * @param maxFold how many times a chunk's byte size must be halvable ({@value #MAX_FOLD_KEY},
 *     default 7)
 * @param chunkByteSizeHint the wanted chunk size in bytes ({@value #BLOCK_SIZE_KEY}, default
 *     131072)
 * @param hashType the hash function ({@value #HASH_TYPE_KEY}, default murmur)
 * @param prefixLength the row prefix length of a ROWPREFIX_FIXED_LENGTH bloom ({@value
 *     #PREFIX_LENGTH_KEY}, 1..32767), 0 for the other types
 */
public record BloomConfig(
    float errorRate, int maxFold, int chunkByteSizeHint, HashType hashType, int prefixLength) {

  /** Target false-positive rate. */
  public static final String ERROR_RATE_KEY = "io.storefile.bloom.error.rate";

  /** Fold factor of the chunk size. */
  public static final String MAX_FOLD_KEY = "io.storefile.bloom.max.fold";

  /** Chunk size hint in bytes. */
  public static final String BLOCK_SIZE_KEY = "io.storefile.bloom.block.size";

  /** Hash function name: {@code jenkins}, {@code murmur} or {@code murmur3}. */
  public static final String HASH_TYPE_KEY = "hbase.hash.type";

  /** Row prefix length of a ROWPREFIX_FIXED_LENGTH bloom, usually a column family setting. */
  public static final String PREFIX_LENGTH_KEY = "RowPrefixBloomFilter.prefix_length";

  /** Master switch of the general bloom filter. */
  public static final String GENERAL_ENABLED_KEY = "io.storefile.bloom.enabled";

  /** Switch of the delete-family bloom filter. */
  public static final String DELETE_FAMILY_ENABLED_KEY = "io.storefile.delete.family.bloom.enabled";

  public static final float DEFAULT_ERROR_RATE = 0.01f;
  public static final int DEFAULT_MAX_FOLD = 7;
  public static final int DEFAULT_CHUNK_BYTE_SIZE_HINT = 128 * 1024;
  public static final HashType DEFAULT_HASH_TYPE = HashType.MURMUR;

  /** Largest fold factor Cellar accepts. */
  public static final int MAX_FOLD = 26;

  /** Largest chunk hint Cellar accepts: 64 MiB. */
  public static final int MAX_CHUNK_BYTE_SIZE_HINT = 1 << 26;

  /** Largest row prefix length: HBase's largest row. */
  public static final int MAX_PREFIX_LENGTH = Short.MAX_VALUE;

  public BloomConfig {
    if (!(errorRate > 0 && errorRate < 1)) {
      throw new InvalidConfigException(
          ERROR_RATE_KEY, Float.toString(errorRate), "expected a rate between 0 and 1, exclusive");
    }
    if (maxFold < 0 || maxFold > MAX_FOLD) {
      throw new InvalidConfigException(
          MAX_FOLD_KEY, Integer.toString(maxFold), "expected 0.." + MAX_FOLD);
    }
    if (chunkByteSizeHint < 1 || chunkByteSizeHint > MAX_CHUNK_BYTE_SIZE_HINT) {
      throw new InvalidConfigException(
          BLOCK_SIZE_KEY,
          Integer.toString(chunkByteSizeHint),
          "expected 1.." + MAX_CHUNK_BYTE_SIZE_HINT + " bytes");
    }
    if (hashType == null) {
      throw new InvalidConfigException(HASH_TYPE_KEY, "null", "expected a hash type");
    }
    if (prefixLength < 0 || prefixLength > MAX_PREFIX_LENGTH) {
      throw new InvalidConfigException(
          PREFIX_LENGTH_KEY, Integer.toString(prefixLength), "expected 1.." + MAX_PREFIX_LENGTH);
    }
    for (BloomType type : new BloomType[] {BloomType.ROW, BloomType.ROWCOL}) {
      try {
        ChunkSizing.forHint(chunkByteSizeHint, maxFold, rowColAdjusted(type, errorRate));
      } catch (IllegalArgumentException e) {
        throw new InvalidConfigException(
            BLOCK_SIZE_KEY, Integer.toString(chunkByteSizeHint), e.getMessage());
      }
    }
  }

  /** HBase's defaults, for any type but ROWPREFIX_FIXED_LENGTH. */
  public static BloomConfig defaults() {
    return new BloomConfig(
        DEFAULT_ERROR_RATE, DEFAULT_MAX_FOLD, DEFAULT_CHUNK_BYTE_SIZE_HINT, DEFAULT_HASH_TYPE, 0);
  }

  /** Reads the configuration of a bloom of {@code type} from {@code settings} alone. */
  public static BloomConfig from(Settings settings, BloomType type) {
    return from(settings, type, null);
  }

  /**
   * Reads the configuration of a bloom of {@code type}. As in HBase, a column family's own
   * configuration overrides the site settings key by key.
   *
   * @param columnFamilyConfig the column family's configuration, or {@code null}
   * @throws InvalidConfigException naming the key if a value is malformed or out of range, or if
   *     {@code type} is ROWPREFIX_FIXED_LENGTH and {@value #PREFIX_LENGTH_KEY} is missing
   */
  public static BloomConfig from(
      Settings settings, BloomType type, Map<String, String> columnFamilyConfig) {
    Map<String, String> family = columnFamilyConfig == null ? Map.of() : columnFamilyConfig;
    String errorRate = lookup(settings, family, ERROR_RATE_KEY);
    String maxFold = lookup(settings, family, MAX_FOLD_KEY);
    String hint = lookup(settings, family, BLOCK_SIZE_KEY);
    String hashType = lookup(settings, family, HASH_TYPE_KEY);
    String prefixLength = lookup(settings, family, PREFIX_LENGTH_KEY);
    boolean prefixed = type == BloomType.ROWPREFIX_FIXED_LENGTH;
    if (prefixed && prefixLength == null) {
      throw new InvalidConfigException(
          PREFIX_LENGTH_KEY, "null", "required by bloom type " + type.name());
    }
    return new BloomConfig(
        errorRate == null ? DEFAULT_ERROR_RATE : parseFloat(ERROR_RATE_KEY, errorRate),
        maxFold == null ? DEFAULT_MAX_FOLD : parseInt(MAX_FOLD_KEY, maxFold),
        hint == null ? DEFAULT_CHUNK_BYTE_SIZE_HINT : parseInt(BLOCK_SIZE_KEY, hint),
        hashType == null ? DEFAULT_HASH_TYPE : parseHashType(hashType),
        prefixed ? parsePrefixLength(prefixLength) : 0);
  }

  /** Whether the general bloom filter is enabled ({@value #GENERAL_ENABLED_KEY}, default true). */
  public static boolean generalBloomEnabled(Settings settings) {
    return settings.getBoolean(GENERAL_ENABLED_KEY, true);
  }

  /**
   * Whether the delete-family bloom filter is enabled ({@value #DELETE_FAMILY_ENABLED_KEY}, default
   * true). HBase builds it only when the general bloom type is not ROWCOL.
   */
  public static boolean deleteFamilyBloomEnabled(Settings settings) {
    return settings.getBoolean(DELETE_FAMILY_ENABLED_KEY, true);
  }

  /**
   * The false-positive rate one chunk probe is sized for. ROWCOL lookups probe twice (the column
   * and the row's DeleteFamily key), so HBase sizes each probe for {@code 1 - sqrt(1 - err)},
   * computed with HBase's mix of float and double arithmetic; the other types use {@link
   * #errorRate} as is.
   */
  public float errorRateFor(BloomType type) {
    return rowColAdjusted(type, errorRate);
  }

  private static float rowColAdjusted(BloomType type, float errorRate) {
    if (type != BloomType.ROWCOL) {
      return errorRate;
    }
    float complement = 1 - errorRate;
    return (float) (1 - Math.sqrt(complement));
  }

  private static String lookup(Settings settings, Map<String, String> family, String key) {
    String value = family.get(key);
    return value != null ? value : settings.get(key);
  }

  private static float parseFloat(String key, String value) {
    try {
      return Float.parseFloat(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, value, "expected a number");
    }
  }

  private static int parseInt(String key, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, value, "expected a 32-bit integer");
    }
  }

  private static HashType parseHashType(String value) {
    try {
      return HashType.parse(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException(HASH_TYPE_KEY, value, "expected jenkins, murmur or murmur3");
    }
  }

  private static int parsePrefixLength(String value) {
    int length = parseInt(PREFIX_LENGTH_KEY, value);
    if (length < 1) {
      throw new InvalidConfigException(
          PREFIX_LENGTH_KEY, value, "expected 1.." + MAX_PREFIX_LENGTH);
    }
    return length;
  }
}
