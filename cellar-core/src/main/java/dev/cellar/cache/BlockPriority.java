package dev.cellar.cache;

/**
 * The LRU cache's priority groups, each with its share of the capacity: blocks read once, blocks
 * read again, and blocks of in-memory column families.
 */
public enum BlockPriority {
  SINGLE,
  MULTI,
  MEMORY
}
