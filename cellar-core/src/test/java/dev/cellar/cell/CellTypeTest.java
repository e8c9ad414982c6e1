package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CellTypeTest {

  @Test
  void codesAndNamesMatchHBase() {
    for (CellType type : CellType.values()) {
      org.apache.hadoop.hbase.KeyValue.Type hbase =
          org.apache.hadoop.hbase.KeyValue.Type.codeToType(type.code());
      assertEquals(hbase.getCode(), type.code());
      assertEquals(hbase.name(), type.hbaseName());
      assertEquals(type, CellType.fromCode(type.code()));
    }
    assertEquals(7, CellType.values().length);
    assertEquals(org.apache.hadoop.hbase.KeyValue.Type.values().length, CellType.values().length);
  }

  @Test
  void unknownCodesAreRejectedWithTheCode() {
    for (int code = 0; code < 256; code++) {
      byte b = (byte) code;
      boolean known = Arrays.stream(CellType.values()).anyMatch(t -> t.code() == b);
      if (!known) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> CellType.fromCode(b));
        assertTrue(
            e.getMessage().startsWith("unknown cell type code " + code + ":"), e.getMessage());
      }
    }
  }
}
