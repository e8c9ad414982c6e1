package dev.cellar.cache;

/**
 * What a cached block holds, as far as the cache cares: statistics are kept per category, and a
 * combined cache routes DATA blocks to one tier and the others to another. The HFile layer maps its
 * block types onto these.
 */
public enum BlockCategory {
  DATA,
  INDEX,
  BLOOM,
  META
}
