package dev.cellar.filter;

/**
 * Marks a filter that moves the scan forward with seek hints and whose answer for a cell does not
 * depend on the cells it was shown before, as HBase's HintingFilter. A MUST_PASS_ALL {@link
 * FilterList} still asks such a filter about a cell another member has already rejected, and does
 * not drop a row in {@link Filter#filterRowKey} while such a filter lets it through, so that its
 * hint can still skip ahead.
 */
public interface HintingFilter {}
