package dev.cellar;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The names of families as strings, for the maps of Gets and Scans keyed by family: a small
 * direct-mapped cache, so that a new Get per read of the same family does not decode its name
 * again. An entry is an immutable pair published by a plain array write (a racing reader sees a
 * whole pair or an older one, and either answer is correct); a miss decodes and replaces the slot.
 * Thread-safe.
 */
final class FamilyNames {

  private static final int SLOTS = 64;
  private static final Entry[] CACHE = new Entry[SLOTS];

  private record Entry(byte[] bytes, String name) {}

  private FamilyNames() {}

  /** {@code family} decoded as UTF-8. */
  static String of(byte[] family) {
    int slot = Arrays.hashCode(family) & (SLOTS - 1);
    Entry entry = CACHE[slot];
    if (entry != null && Arrays.equals(entry.bytes(), family)) {
      return entry.name();
    }
    String name = new String(family, StandardCharsets.UTF_8);
    CACHE[slot] = new Entry(family.clone(), name);
    return name;
  }
}
