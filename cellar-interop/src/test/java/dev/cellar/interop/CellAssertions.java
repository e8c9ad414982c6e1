package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

/** Cell list comparisons whose failures name the first differing cell, not the whole lists. */
final class CellAssertions {

  private CellAssertions() {}

  /** Asserts that both lists hold the same cells in the same order. */
  static void assertSameCells(List<CellSpec> expected, List<CellSpec> actual) {
    int common = Math.min(expected.size(), actual.size());
    for (int i = 0; i < common; i++) {
      assertEquals(expected.get(i), actual.get(i), "cell " + i);
    }
    assertEquals(expected.size(), actual.size(), "cell count");
  }
}
