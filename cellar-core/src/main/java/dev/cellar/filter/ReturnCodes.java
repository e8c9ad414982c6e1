package dev.cellar.filter;

import dev.cellar.filter.Filter.ReturnCode;

/**
 * How a {@link FilterList} merges its members' answers for one cell, as HBase's FilterListWithAND
 * and FilterListWithOR do. Every code is a pair: whether the cell is kept, and how far the scan may
 * then skip (the cell, the column, the row, or to a seek hint, in rising order). MUST_PASS_ALL
 * keeps a cell only if all keep it and takes the farthest skip, any hint winning; MUST_PASS_ONE
 * keeps it if one does and takes the shortest skip, a hint counting as no skip unless every member
 * gave one (the list cannot tell how far a lone hint goes).
 */
final class ReturnCodes {

  private static final int CELL = 0;
  private static final int COLUMN = 1;
  private static final int ROW = 2;

  private ReturnCodes() {}

  /** Whether the code keeps the cell. */
  static boolean includes(ReturnCode code) {
    return code == ReturnCode.INCLUDE
        || code == ReturnCode.INCLUDE_AND_NEXT_COL
        || code == ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW;
  }

  /** MUST_PASS_ALL's merge. */
  static ReturnCode all(ReturnCode left, ReturnCode right) {
    if (left == ReturnCode.SEEK_NEXT_USING_HINT || right == ReturnCode.SEEK_NEXT_USING_HINT) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return of(includes(left) && includes(right), Math.max(skip(left), skip(right)));
  }

  /** MUST_PASS_ONE's merge. */
  static ReturnCode any(ReturnCode left, ReturnCode right) {
    if (left == ReturnCode.SEEK_NEXT_USING_HINT && right == ReturnCode.SEEK_NEXT_USING_HINT) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return of(includes(left) || includes(right), Math.min(skip(left), skip(right)));
  }

  /** How far the code skips; a hint counts as the cell alone. */
  private static int skip(ReturnCode code) {
    return switch (code) {
      case INCLUDE, SKIP, SEEK_NEXT_USING_HINT -> CELL;
      case INCLUDE_AND_NEXT_COL, NEXT_COL -> COLUMN;
      case INCLUDE_AND_SEEK_NEXT_ROW, NEXT_ROW -> ROW;
    };
  }

  private static ReturnCode of(boolean include, int skip) {
    return switch (skip) {
      case CELL -> include ? ReturnCode.INCLUDE : ReturnCode.SKIP;
      case COLUMN -> include ? ReturnCode.INCLUDE_AND_NEXT_COL : ReturnCode.NEXT_COL;
      default -> include ? ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW : ReturnCode.NEXT_ROW;
    };
  }
}
