package dev.cellar.memory;

/**
 * Somewhere a reader can take a buffer to fill: a cache that would otherwise copy what it is given
 * offers one of its own, so the bytes land once where they will stay.
 */
@FunctionalInterface
public interface BufSource {

  /**
   * A contiguous buffer of exactly {@code capacity} bytes, holding one reference for the caller.
   */
  Buf takeRetained(int capacity);

  /**
   * A contiguous buffer of at least {@code capacity} bytes, holding one reference for the caller: a
   * source whose buffers come in classes may hand out a whole one, sparing a view of its first
   * bytes. The default is {@link #takeRetained}.
   */
  default Buf takeAtLeastRetained(int capacity) {
    return takeRetained(capacity);
  }
}
