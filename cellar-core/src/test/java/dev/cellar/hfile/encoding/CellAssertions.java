package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.util.function.Supplier;

/**
 * Field-by-field comparison of a cell read from a block with the cell that was written. Messages
 * are built only on failure, since these run for every cell of every test.
 */
final class CellAssertions {

  private CellAssertions() {}

  /** Asserts that {@code actual} has {@code expected}'s key. */
  static void assertSameKey(Cell expected, Cell actual, Supplier<String> message) {
    assertTrue(
        Bytes.equals(
            expected.segment(),
            expected.keyOffset(),
            expected.keyLength(),
            actual.segment(),
            actual.keyOffset(),
            actual.keyLength()),
        () -> message.get() + ": expected the key of " + expected + ", found " + actual);
    assertEquals(expected.rowLength(), actual.rowLength(), message);
    assertEquals(expected.familyLength(), actual.familyLength(), message);
  }

  /**
   * Asserts that {@code actual} is {@code expected}: key, value, tags and, when the block holds
   * mvcc, sequence id (otherwise 0).
   */
  static void assertSameCell(
      KeyValue expected, Cell actual, EncodingContext context, Supplier<String> message) {
    assertSameKey(expected, actual, message);
    assertTrue(
        Bytes.equals(
            expected.valueSegment(),
            expected.valueOffset(),
            expected.valueLength(),
            actual.valueSegment(),
            actual.valueOffset(),
            actual.valueLength()),
        () -> message.get() + ": the value of " + expected + " differs in " + actual);
    assertTrue(
        Bytes.equals(
            expected.tagsSegment(),
            expected.tagsOffset(),
            expected.tagsLength(),
            actual.tagsSegment(),
            actual.tagsOffset(),
            actual.tagsLength()),
        () -> message.get() + ": the tags of " + expected + " differ in " + actual);
    assertEquals(context.includesMvcc() ? expected.sequenceId() : 0, actual.sequenceId(), message);
  }
}
