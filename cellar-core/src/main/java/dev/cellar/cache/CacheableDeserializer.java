package dev.cellar.cache;

import dev.cellar.memory.Buf;
import java.io.IOException;

/**
 * Rebuilds blocks of one kind from the bytes a cache outside the heap objects stored for them (the
 * L2 bucket cache, and its persisted form across restarts). A stored block is its buffer's bytes
 * followed by {@link #metadataLength()} bytes the block wrote with {@link Cacheable#writeMetadata}.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} and identified by {@link
 * #name()}, which is persisted with every cached entry and so must never change for a kind of
 * block. Implementations are stateless and thread-safe.
 */
public interface CacheableDeserializer {

  /** The stable name stored with every entry of this kind (for example {@code "hfile-block"}). */
  String name();

  /** The number of metadata bytes after a block's content; the same for every block of the kind. */
  int metadataLength();

  /**
   * The block whose stored content is {@code content} and whose metadata is the {@link
   * #metadataLength()} bytes of {@code metadata} at {@code metadataIndex}.
   *
   * @param content the block's bytes; the returned block takes over the caller's reference, and on
   *     failure the caller still owns it
   * @throws IOException if the bytes cannot be a block of this kind
   */
  Cacheable deserialize(Buf content, Buf metadata, int metadataIndex) throws IOException;
}
