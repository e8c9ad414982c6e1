package dev.cellar.hfile.bloom;

/**
 * A closed bloom chunk waiting to be written as a {@code BLOOM_CHUNK} block. Thread-safe as long as
 * nobody changes the arrays, which the receiver must not do: the writer keeps the first key for its
 * chunk index.
 *
 * @param payload the block payload: the (folded) bit array, a copy owned by the receiver
 * @param firstKey the first key added to the chunk, its entry in the bloom index
 * @param keyCount the number of keys in the chunk
 */
public record ReadyChunk(byte[] payload, byte[] firstKey, int keyCount) {}
