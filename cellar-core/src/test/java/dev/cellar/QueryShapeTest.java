package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The columns a query names, kept without a map or list for one family and one column, and the
 * shape comparison that decides whether a reader's compiled plan serves the next Get.
 */
class QueryShapeTest {

  private static final byte[] ROW = bytes("r");
  private static final byte[] F = bytes("f");
  private static final byte[] G = bytes("g");

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static List<String> names(List<byte[]> qualifiers) {
    return qualifiers.stream().map(q -> new String(q, StandardCharsets.US_ASCII)).toList();
  }

  @Test
  void oneColumnIsKeptAsGivenAndListedAsOne() {
    byte[] qualifier = bytes("q");
    Get get = new Get(ROW).addColumn(F, qualifier);
    Map<String, List<byte[]>> columns = get.columns();
    assertEquals(List.of("f"), List.copyOf(columns.keySet()));
    assertEquals(1, columns.get("f").size());
    assertSame(qualifier, columns.get("f").get(0), "the Get keeps the caller's array");
  }

  @Test
  void moreColumnsOfTheFamilyAreSortedOnceEach() {
    Get get =
        new Get(ROW).addColumn(F, bytes("q2")).addColumn(F, bytes("q1")).addColumn(F, bytes("q2"));
    assertEquals(List.of("q1", "q2"), names(get.columns().get("f")));
  }

  @Test
  void theWholeFamilyWinsOverItsColumns() {
    Get columnThenFamily = new Get(ROW).addColumn(F, bytes("q")).addFamily(F);
    assertNull(columnThenFamily.columns().get("f"));
    Get familyThenColumn = new Get(ROW).addFamily(F).addColumn(F, bytes("q"));
    assertNull(familyThenColumn.columns().get("f"));
    assertTrue(familyThenColumn.columns().containsKey("f"));
  }

  @Test
  void aSecondFamilyKeepsTheFirstFamilysColumn() {
    Get get = new Get(ROW).addColumn(F, bytes("q")).addFamily(G);
    Map<String, List<byte[]>> columns = get.columns();
    assertEquals(List.of("f", "g"), List.copyOf(columns.keySet()));
    assertEquals(List.of("q"), names(columns.get("f")));
    assertNull(columns.get("g"));
    get.addColumn(F, bytes("p"));
    assertEquals(List.of("p", "q"), names(get.columns().get("f")));
  }

  @Test
  void theSameColumnsInOtherArraysAreTheSameShape() {
    Get one = new Get(ROW).addColumn(F, bytes("q"));
    assertTrue(one.sameShapeAs(new Get(bytes("other row")).addColumn(F, bytes("q"))));
    assertTrue(new Get(ROW).addFamily(F).sameShapeAs(new Get(ROW).addFamily(F)));
    assertTrue(new Get(ROW).sameShapeAs(new Get(ROW)));
    assertTrue(
        new Get(ROW)
            .addColumn(F, bytes("a"))
            .addColumn(F, bytes("b"))
            .sameShapeAs(new Get(ROW).addColumn(F, bytes("b")).addColumn(F, bytes("a"))));
    assertTrue(
        new Get(ROW)
            .addColumn(F, bytes("q"))
            .addFamily(G)
            .sameShapeAs(new Get(ROW).addFamily(G).addColumn(F, bytes("q"))));
  }

  @Test
  void otherColumnsAreAnotherShape() {
    Get one = new Get(ROW).addColumn(F, bytes("q"));
    assertFalse(one.sameShapeAs(new Get(ROW).addColumn(F, bytes("p"))));
    assertFalse(one.sameShapeAs(new Get(ROW).addColumn(G, bytes("q"))));
    assertFalse(one.sameShapeAs(new Get(ROW).addFamily(F)));
    assertFalse(new Get(ROW).addFamily(F).sameShapeAs(one));
    assertFalse(one.sameShapeAs(new Get(ROW).addColumn(F, bytes("q")).addColumn(F, bytes("r"))));
    assertFalse(new Get(ROW).addColumn(F, bytes("q")).addColumn(F, bytes("r")).sameShapeAs(one));
    assertFalse(one.sameShapeAs(new Get(ROW)));
    assertFalse(one.sameShapeAs(new Get(ROW).addColumn(F, bytes("q")).readVersions(2)));
  }

  @Test
  void aColumnOfTheQueryIsTheCallersArray() {
    byte[] qualifier = bytes("q");
    Get get = new Get(ROW).addColumn(F, qualifier);
    qualifier[0] = 'p';
    assertArrayEquals(
        bytes("p"),
        get.columns().get("f").get(0),
        "as HBase's Get, the query keeps the array it was given");
  }
}
