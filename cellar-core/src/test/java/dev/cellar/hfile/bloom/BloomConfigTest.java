package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import dev.cellar.schema.BloomType;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BloomConfigTest {

  @Test
  void defaultsAreHBases() {
    BloomConfig config = BloomConfig.from(Settings.empty(), BloomType.ROW);
    assertEquals(BloomConfig.defaults(), config);
    assertEquals(0.01f, config.errorRate());
    assertEquals(7, config.maxFold());
    assertEquals(131072, config.chunkByteSizeHint());
    assertEquals(HashType.MURMUR, config.hashType());
    assertEquals(0, config.prefixLength());
    assertTrue(BloomConfig.generalBloomEnabled(Settings.empty()));
    assertTrue(BloomConfig.deleteFamilyBloomEnabled(Settings.empty()));
    assertFalse(
        BloomConfig.deleteFamilyBloomEnabled(
            Settings.empty().with(BloomConfig.DELETE_FAMILY_ENABLED_KEY, "false")));
  }

  @Test
  void readsHBaseKeysAndLetsTheFamilyOverride() {
    Settings settings =
        Settings.of(
            Map.of(
                BloomConfig.ERROR_RATE_KEY, "0.02",
                BloomConfig.MAX_FOLD_KEY, "5",
                BloomConfig.BLOCK_SIZE_KEY, "4096",
                BloomConfig.HASH_TYPE_KEY, "Murmur3"));
    BloomConfig config =
        BloomConfig.from(
            settings,
            BloomType.ROWPREFIX_FIXED_LENGTH,
            Map.of(BloomConfig.PREFIX_LENGTH_KEY, "4", BloomConfig.HASH_TYPE_KEY, "jenkins"));
    assertEquals(new BloomConfig(0.02f, 5, 4096, HashType.JENKINS, 4), config);
    assertEquals(
        0,
        BloomConfig.from(settings, BloomType.ROW, Map.of(BloomConfig.PREFIX_LENGTH_KEY, "4"))
            .prefixLength());
  }

  @Test
  void rowColProbesAreSizedForHalfTheRateInHBasesArithmetic() {
    BloomConfig config = BloomConfig.defaults();
    assertEquals(0.01f, config.errorRateFor(BloomType.ROW));
    assertEquals(0.01f, config.errorRateFor(BloomType.ROWPREFIX_FIXED_LENGTH));
    assertEquals(Float.intBitsToFloat(0x3ba44063), config.errorRateFor(BloomType.ROWCOL));
  }

  @Test
  void badValuesNameTheirKey() {
    assertKey(BloomConfig.ERROR_RATE_KEY, BloomConfig.ERROR_RATE_KEY, "abc");
    assertKey(BloomConfig.ERROR_RATE_KEY, BloomConfig.ERROR_RATE_KEY, "0");
    assertKey(BloomConfig.ERROR_RATE_KEY, BloomConfig.ERROR_RATE_KEY, "1");
    assertKey(BloomConfig.ERROR_RATE_KEY, BloomConfig.ERROR_RATE_KEY, "NaN");
    assertKey(BloomConfig.MAX_FOLD_KEY, BloomConfig.MAX_FOLD_KEY, "-1");
    assertKey(BloomConfig.MAX_FOLD_KEY, BloomConfig.MAX_FOLD_KEY, "99");
    assertKey(BloomConfig.BLOCK_SIZE_KEY, BloomConfig.BLOCK_SIZE_KEY, "0");
    assertKey(BloomConfig.BLOCK_SIZE_KEY, BloomConfig.BLOCK_SIZE_KEY, "1x");
    assertKey(BloomConfig.HASH_TYPE_KEY, BloomConfig.HASH_TYPE_KEY, "md5");
    InvalidConfigException tooSmall =
        assertThrows(
            InvalidConfigException.class,
            () ->
                BloomConfig.from(
                    Settings.of(
                        Map.of(BloomConfig.BLOCK_SIZE_KEY, "1", BloomConfig.MAX_FOLD_KEY, "0")),
                    BloomType.ROW));
    assertEquals(BloomConfig.BLOCK_SIZE_KEY, tooSmall.key());
    assertTrue(tooSmall.getMessage().contains("holds no key"), tooSmall.getMessage());
  }

  @Test
  void rowPrefixNeedsAValidPrefixLength() {
    for (String value : new String[] {"0", "-3", "32768", "four"}) {
      InvalidConfigException e =
          assertThrows(
              InvalidConfigException.class,
              () ->
                  BloomConfig.from(
                      Settings.empty(),
                      BloomType.ROWPREFIX_FIXED_LENGTH,
                      Map.of(BloomConfig.PREFIX_LENGTH_KEY, value)));
      assertEquals(BloomConfig.PREFIX_LENGTH_KEY, e.key());
    }
    InvalidConfigException missing =
        assertThrows(
            InvalidConfigException.class,
            () -> BloomConfig.from(Settings.empty(), BloomType.ROWPREFIX_FIXED_LENGTH, null));
    assertEquals(BloomConfig.PREFIX_LENGTH_KEY, missing.key());
  }

  @Test
  void typeAndHashNamesParseAsHBasesDo() {
    assertEquals(BloomType.ROWPREFIX_FIXED_LENGTH, BloomType.parse("ROWPREFIX"));
    assertEquals(BloomType.ROWPREFIX_FIXED_LENGTH, BloomType.parse("rowprefix_fixed_length"));
    assertEquals(BloomType.ROWCOL, BloomType.parse(" ROWCOL "));
    assertEquals("ROWPREFIX_FIXED_LENGTH", BloomType.ROWPREFIX_FIXED_LENGTH.name());
    assertThrows(IllegalArgumentException.class, () -> BloomType.parse("COL"));
    assertEquals(HashType.MURMUR3, HashType.parse("MURMUR3"));
    assertEquals(HashType.JENKINS, HashType.fromCode(0));
    assertThrows(IllegalArgumentException.class, () -> HashType.fromCode(3));
    for (HashType type : HashType.values()) {
      assertEquals(org.apache.hadoop.hbase.util.Hash.parseHashType(type.configName()), type.code());
    }
  }

  private static void assertKey(String expectedKey, String key, String value) {
    InvalidConfigException e =
        assertThrows(
            InvalidConfigException.class,
            () -> BloomConfig.from(Settings.of(Map.of(key, value)), BloomType.ROW),
            key + "=" + value);
    assertEquals(expectedKey, e.key());
  }
}
