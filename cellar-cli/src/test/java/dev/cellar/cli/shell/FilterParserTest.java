package dev.cellar.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.filter.ColumnPaginationFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.FirstKeyOnlyFilter;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SkipFilter;
import dev.cellar.filter.ValueFilter;
import dev.cellar.filter.WhileMatchFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** HBase's filter language as the shell reads it: what Cellar runs, and what it refuses. */
class FilterParserTest {

  private static Filter parse(String text) {
    return FilterParser.parse(text).filter();
  }

  private static String refusal(String text) {
    return assertThrows(ShellException.class, () -> FilterParser.parse(text)).getMessage();
  }

  @Test
  void whileBindsTighterThanAndWhichBindsTighterThanOr() {
    FilterList any =
        assertInstanceOf(
            FilterList.class,
            parse(
                "PrefixFilter('r') OR WHILE RowFilter(<=, 'binary:r5') AND"
                    + " SingleColumnValueFilter('f', 'q', >=, 'binary:7', true, false)"));
    assertEquals(FilterList.Operator.MUST_PASS_ONE, any.operator());
    assertInstanceOf(PrefixFilter.class, any.filters().get(0));
    FilterList all = assertInstanceOf(FilterList.class, any.filters().get(1));
    assertEquals(FilterList.Operator.MUST_PASS_ALL, all.operator());
    WhileMatchFilter whileMatch = assertInstanceOf(WhileMatchFilter.class, all.filters().get(0));
    assertInstanceOf(RowFilter.class, whileMatch.inner());
    SingleColumnValueFilter column =
        assertInstanceOf(SingleColumnValueFilter.class, all.filters().get(1));
    assertTrue(column.filterIfMissing());
    assertFalse(column.latestVersionOnly());
    assertInstanceOf(PrefixFilter.class, parse("(PrefixFilter('it''s'))"));
  }

  @Test
  void keyOnlyFilterKeepsEveryCellAndAsksForTheValuesToBeDropped() {
    FilterParser.Parsed keys = FilterParser.parse("KeyOnlyFilter()");
    assertTrue(assertInstanceOf(FilterList.class, keys.filter()).filters().isEmpty());
    assertEquals(ShellOutput.Values.DROPPED, keys.values());
    assertEquals(
        ShellOutput.Values.LENGTHS,
        FilterParser.parse("PrefixFilter('r') AND KeyOnlyFilter(true)").values());
    assertEquals(ShellOutput.Values.SHOWN, FilterParser.parse("PageFilter(1)").values());
  }

  @Test
  void theOtherFiltersCellarHasTakeHBasesArguments() {
    assertInstanceOf(FirstKeyOnlyFilter.class, parse("FirstKeyOnlyFilter()"));
    assertEquals(3, assertInstanceOf(PageFilter.class, parse("PageFilter (3)")).pageSize());
    ColumnPaginationFilter page =
        assertInstanceOf(ColumnPaginationFilter.class, parse("ColumnPaginationFilter(2, 1)"));
    assertEquals(2, page.limit());
    assertEquals(1, page.offset());
    for (String comparator : new String[] {"binary:a", "binaryprefix:a", "substring:a"}) {
      assertInstanceOf(ValueFilter.class, parse("ValueFilter(!=, '" + comparator + "')"));
    }
    assertInstanceOf(
        SingleColumnValueFilter.class, parse("SingleColumnValueFilter('f','q',=,'binary:v')"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "TimestampsFilter(1, 2)",
        "MultipleColumnPrefixFilter('a', 'b')",
        "ColumnCountGetFilter(2)",
        "InclusiveStopFilter('r')",
        "ColumnRangeFilter('a', true, 'c', false)",
        "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:v')",
        "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:v', true, false)",
        "DependentColumnFilter('f', 'q')",
        "DependentColumnFilter('f', 'q', true)",
        "DependentColumnFilter('f', 'q', false, =, 'binary:v')",
        "ColumnValueFilter('f', 'q', =, 'binary:v')"
      })
  void everyFilterOfTheLanguageParsesToTheFilterOfItsName(String text) {
    String name = text.substring(0, text.indexOf('('));
    assertEquals(name, parse(text).getClass().getSimpleName());
  }

  @Test
  void skipAndRegexStringParse() {
    assertInstanceOf(SkipFilter.class, parse("SKIP ValueFilter(=, 'binary:a')"));
    assertInstanceOf(ValueFilter.class, parse("ValueFilter(=, 'regexstring:a.*')"));
  }

  @Test
  void mistakesAreOneLineNamingWhatWasWrong() {
    assertTrue(
        refusal("TimestampsFilter(1, x)").contains("'x' is not a number"),
        refusal("TimestampsFilter(1, x)"));
    assertTrue(refusal("ValueFilter(~, 'binary:a')").contains("compare operator '~'"));
    assertTrue(
        refusal("NoSuchFilter()")
            .startsWith("filter NoSuchFilter is not one of HBase's filter language"));
    assertEquals(
        "filter PrefixFilter takes 1 arguments, was given 2", refusal("PrefixFilter('a', 'b')"));
    assertEquals("filter PageFilter: 'x' is not a number", refusal("PageFilter(x)"));
    assertEquals(
        "filter SingleColumnValueFilter: 'yes' is not true or false",
        refusal("SingleColumnValueFilter('f', 'q', =, 'binary:v', yes, true)"));
    assertTrue(refusal("PrefixFilter('a') XOR PageFilter(1)").contains("expected AND, OR"));
    for (String message :
        new String[] {refusal("PrefixFilter('a"), refusal("PageFilter(1"), refusal("")}) {
      assertFalse(message.contains("\n"), message);
    }
  }
}
