package dev.cellar.store;

import dev.cellar.hfile.HFileContext;

/**
 * What the store layer needs to know of a column family: its name, how its files are written (block
 * size, encoding, compression, bloom: the {@link HFileContext}), whether its blocks are cached and
 * with in-memory priority, and its version and TTL rules. Immutable.
 *
 * @param name the family name as cells carry it
 * @param fileContext how the family's HFiles are written
 * @param inMemory cache its blocks with the in-memory priority
 * @param blockCache cache its data blocks on read (index and bloom blocks always are)
 * @param maxVersions versions kept by major compactions and returned at most
 * @param ttlMillis cells older than this expire; Long.MAX_VALUE for never
 * @param minVersions versions kept even when expired
 */
public record FamilySettings(
    byte[] name,
    HFileContext fileContext,
    boolean inMemory,
    boolean blockCache,
    int maxVersions,
    long ttlMillis,
    int minVersions) {

  public FamilySettings {
    name = name.clone();
  }

  @Override
  public byte[] name() {
    return name.clone();
  }

  /** The name as text, for file paths and messages. */
  public String nameString() {
    return new String(name, java.nio.charset.StandardCharsets.UTF_8);
  }
}
