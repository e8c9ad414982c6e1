package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The family attributes' public enums stay in step with the file format's own. */
class FamilyFormatsTest {

  @Test
  void everyBloomTypeAndEncodingOfTheFormatHasAPublicTwin() {
    for (dev.cellar.hfile.bloom.BloomType type : dev.cellar.hfile.bloom.BloomType.values()) {
      assertEquals(type, FamilyFormats.format(BloomType.valueOf(type.name())));
    }
    for (dev.cellar.hfile.encoding.DataBlockEncoding encoding :
        dev.cellar.hfile.encoding.DataBlockEncoding.values()) {
      assertEquals(encoding, FamilyFormats.format(DataBlockEncoding.valueOf(encoding.name())));
    }
    assertEquals(BloomType.values().length, dev.cellar.hfile.bloom.BloomType.values().length);
    assertEquals(
        DataBlockEncoding.values().length,
        dev.cellar.hfile.encoding.DataBlockEncoding.values().length);
  }

  @Test
  void thePublicCompressionsAreTheSupportedOnes() {
    Set<dev.cellar.hfile.Compression> supported =
        Arrays.stream(dev.cellar.hfile.Compression.values())
            .filter(dev.cellar.hfile.Compression::isSupported)
            .collect(Collectors.toSet());
    assertEquals(
        supported,
        Arrays.stream(Compression.values()).map(FamilyFormats::format).collect(Collectors.toSet()));
  }

  @Test
  void descriptorsParseHBaseSpellingsIntoThePublicEnums() {
    ColumnFamilyDescriptor family =
        ColumnFamilyDescriptor.of(
            "f",
            Map.of(
                "BLOOMFILTER",
                "rowprefix",
                "DATA_BLOCK_ENCODING",
                "FAST_DIFF",
                "COMPRESSION",
                "snappy"));
    assertEquals(BloomType.ROWPREFIX_FIXED_LENGTH, family.bloomFilter());
    assertEquals(DataBlockEncoding.FAST_DIFF, family.dataBlockEncoding());
    assertEquals(Compression.SNAPPY, family.compression());
    IllegalArgumentException lzo =
        assertThrows(
            IllegalArgumentException.class,
            () -> ColumnFamilyDescriptor.of("f", Map.of("COMPRESSION", "LZO")));
    assertEquals(
        "family f: COMPRESSION LZO is not available; use NONE, GZ, SNAPPY, LZ4 or ZSTD",
        lzo.getMessage());
  }
}
