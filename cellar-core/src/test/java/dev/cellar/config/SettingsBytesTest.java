package dev.cellar.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SettingsBytesTest {

  private static long bytes(String value) {
    return Settings.empty().with("size", value).getBytes("size", -1);
  }

  @Test
  void plainNumbersAndBinarySuffixes() {
    assertEquals(-1, Settings.empty().getBytes("size", -1));
    assertEquals(12345, bytes(" 12345 "));
    assertEquals(4096, bytes("4k"));
    assertEquals(3L << 20, bytes("3M"));
    assertEquals(10L << 30, bytes("10g"));
    assertEquals(2L << 40, bytes("2 t"));
    assertEquals(1L << 50, bytes("1p"));
    assertEquals(1L << 60, bytes("1e"));
  }

  @Test
  void malformedOrOverflowingValuesNameTheKey() {
    for (String bad : new String[] {"", "g", "ten", "1.5g", "8e", "9223372036854775808"}) {
      InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> bytes(bad), bad);
      assertEquals("size", e.key());
    }
  }
}
