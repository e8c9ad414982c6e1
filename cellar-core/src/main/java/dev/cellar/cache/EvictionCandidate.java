package dev.cellar.cache;

/** What an eviction run needs of a cached entry: the bytes evicting it frees and its recency. */
public interface EvictionCandidate {

  /** The bytes the entry accounts for. */
  long evictionSize();

  /** The tick of its last read (or insert); lower is older. */
  long lastAccess();
}
