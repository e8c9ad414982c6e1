package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.schema.BloomType;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Family descriptors parse HBase's spellings and refuse what Cellar cannot write. */
class ColumnFamilyDescriptorTest {

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

  @Test
  void everyAlgorithmCellarLacksIsRefusedWhereverTheDescriptorIsMade() {
    for (Compression algorithm : Compression.values()) {
      if (algorithm.isSupported()) {
        assertEquals(algorithm, compressedWith(algorithm).compression());
        continue;
      }
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> compressedWith(algorithm));
      assertEquals(
          "family f: COMPRESSION "
              + algorithm
              + " is not available; use NONE, GZ, SNAPPY, LZ4 or ZSTD",
          refused.getMessage());
    }
  }

  private static ColumnFamilyDescriptor compressedWith(Compression algorithm) {
    return new ColumnFamilyDescriptor(
        "f",
        65536,
        BloomType.ROW,
        DataBlockEncoding.NONE,
        algorithm,
        false,
        true,
        1,
        ColumnFamilyDescriptor.FOREVER,
        0);
  }
}
