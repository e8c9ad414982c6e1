package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Several filters combined, as HBase's FilterList: {@link Operator#MUST_PASS_ALL} keeps what every
 * member keeps, {@link Operator#MUST_PASS_ONE} what any member keeps. Lists nest. The merging of
 * return codes, seek hints and row-level answers follows HBase 2.6 exactly, order included (a
 * MUST_PASS_ALL list stops showing a cell to its members once one rejects it, and asks them about a
 * row in order), so the order of the members can matter to stateful ones such as {@link
 * PageFilter}. An empty list keeps everything.
 *
 * <p>The members are fixed at construction. Each filter instance may appear only once in a tree of
 * lists, since filters keep per-row and per-scan state.
 */
public final class FilterList extends Filter {

  /** How the members' answers combine. */
  public enum Operator {
    /** A cell or row is kept only if every member keeps it (AND). */
    MUST_PASS_ALL,
    /** A cell or row is kept if any member keeps it (OR). */
    MUST_PASS_ONE
  }

  private final Operator operator;
  private final List<Filter> filters;
  private final Filter combined;

  /** See {@link #FilterList(Operator, List)}. */
  public FilterList(Operator operator, Filter... filters) {
    this(operator, Arrays.asList(Objects.requireNonNull(filters, "filters")));
  }

  /**
   * @param operator how the members combine
   * @param filters the members, in the order they are asked; copied
   * @throws NullPointerException if the operator, the list or a member is null
   * @throws IllegalArgumentException if a filter instance appears more than once in the tree
   */
  public FilterList(Operator operator, List<Filter> filters) {
    this.operator = Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(filters, "filters");
    for (int i = 0; i < filters.size(); i++) {
      if (filters.get(i) == null) {
        throw new NullPointerException("FilterList: member " + i + " is null");
      }
    }
    this.filters = List.copyOf(filters);
    checkEachInstanceOnce(this.filters);
    this.combined =
        operator == Operator.MUST_PASS_ALL
            ? new MustPassAll(this.filters)
            : new MustPassOne(this.filters);
  }

  private static void checkEachInstanceOnce(List<Filter> filters) {
    Set<Filter> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Filter filter : filters) {
      collect(filter, seen);
    }
  }

  private static void collect(Filter filter, Set<Filter> seen) {
    if (!seen.add(filter)) {
      throw new IllegalArgumentException(
          "FilterList: the same "
              + filter
              + " instance appears twice; filters keep state, so give each place its own instance");
    }
    if (filter instanceof FilterList list) {
      for (Filter member : list.filters) {
        collect(member, seen);
      }
    }
  }

  public Operator operator() {
    return operator;
  }

  /** The members, in order (unmodifiable). */
  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    for (Filter filter : filters) {
      filter.setReversed(reversed);
    }
  }

  public List<Filter> filters() {
    return filters;
  }

  @Override
  public void reset() {
    combined.reset();
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    return combined.filterRowKey(firstRowCell);
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return combined.filterCell(cell);
  }

  @Override
  public Cell nextCellHint(Cell current) {
    return combined.nextCellHint(current);
  }

  @Override
  public boolean filterAllRemaining() {
    return combined.filterAllRemaining();
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    combined.filterRowCells(cells);
  }

  @Override
  public boolean filterRow() {
    return combined.filterRow();
  }

  @Override
  public boolean hasFilterRow() {
    return combined.hasFilterRow();
  }

  @Override
  public String toString() {
    return "FilterList " + operator + " " + filters;
  }
}
