package dev.cellar.cli.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PeDataTest {

  @Test
  void rowKeysAreHBasesFormat() {
    assertEquals(
        "00000000000000000000000123", new String(PeData.format(123), StandardCharsets.US_ASCII));
    assertEquals(
        "00000000000000000001048575",
        new String(PeData.format(1048575), StandardCharsets.US_ASCII));
    assertEquals("info1", new String(PeData.family(1), StandardCharsets.US_ASCII));
    assertEquals("12", new String(PeData.qualifier(12), StandardCharsets.US_ASCII));
  }

  @Test
  void valuesAreRunsOfEightUpperCaseLetters() {
    byte[] value = PeData.generateData(new SplittableRandom(3), 1000);
    assertEquals(1000, value.length);
    for (int i = 0; i < value.length; i++) {
      assertTrue(value[i] >= 'A' && value[i] <= 'Z');
      if (i % 8 != 0 && i < 992) {
        assertEquals(value[i - 1], value[i], "at " + i);
      }
    }
    assertEquals(0, PeData.generateData(new SplittableRandom(3), 0).length);
  }

  @Test
  void zipfSizesStayInRangeAndFavourSmallOnes() {
    Zipf zipf = new Zipf(new SplittableRandom(5), 1, 1000, 1.2);
    int small = 0;
    for (int i = 0; i < 10_000; i++) {
      int size = zipf.next();
      assertTrue(size >= 1 && size < 1000, "size " + size);
      if (size < 10) {
        small++;
      }
    }
    assertTrue(small > 5_000, small + " of 10000 below 10");
  }
}
