package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.LongComparator;
import dev.cellar.filter.NullComparator;
import dev.cellar.filter.RegexStringComparator;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.ValueCondition;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded check-and-mutate with a comparator, and its test ({@link ValueCondition}) against
 * HBase's region rules: an empty comparator value asks for an absent or empty column.
 */
class CheckAndMutateWithComparatorTest {

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path directory;

  @Test
  void theConditionFollowsHBasesRegion() {
    byte[] five = Bytes.toBytes(5L);
    assertTrue(ValueCondition.holds(CompareOperator.LESS, new LongComparator(4), five));
    assertFalse(ValueCondition.holds(CompareOperator.GREATER, new LongComparator(4), five));
    assertTrue(ValueCondition.holds(CompareOperator.EQUAL, new BinaryComparator(five), five));
    assertFalse(ValueCondition.holds(CompareOperator.EQUAL, new BinaryComparator(five), null));
    ByteArrayComparable absent = new BinaryComparator(new byte[0]);
    assertTrue(ValueCondition.holds(CompareOperator.EQUAL, absent, null));
    assertTrue(ValueCondition.holds(CompareOperator.EQUAL, absent, new byte[0]));
    assertFalse(ValueCondition.holds(CompareOperator.EQUAL, absent, five));
    assertTrue(ValueCondition.holds(CompareOperator.NOT_EQUAL, absent, five));
    assertTrue(ValueCondition.holds(CompareOperator.GREATER, new NullComparator(), null));
    assertTrue(
        ValueCondition.holds(
            CompareOperator.EQUAL, new SubstringComparator("ELL"), Bytes.toBytes("hello")));
    assertThrows(
        IllegalArgumentException.class,
        () -> ValueCondition.holds(CompareOperator.NO_OP, new LongComparator(1), five));
  }

  @Test
  void theEmbeddedTableAppliesTheMutationOnlyWhenTheConditionHolds() throws Exception {
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      byte[] row = Bytes.toBytes("r");
      table.put(new Put(row).addColumn(F, Q, Bytes.toBytes(42L)));
      assertTrue(
          table.checkAndMutateWithComparator(
              F,
              Q,
              CompareOperator.LESS,
              new LongComparator(41),
              new Put(row).addColumn(F, Bytes.toBytes("a"), Bytes.toBytes("1"))));
      assertFalse(
          table.checkAndMutateWithComparator(
              F,
              Q,
              CompareOperator.EQUAL,
              new RegexStringComparator("^x"),
              new Put(row).addColumn(F, Bytes.toBytes("b"), Bytes.toBytes("1"))));
      try (Result result = table.get(new Get(row))) {
        assertEquals(2, result.rawCells().size());
      }
    }
  }
}
