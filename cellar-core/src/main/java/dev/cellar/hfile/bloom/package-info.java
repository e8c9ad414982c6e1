/**
 * HBase's compound bloom filters, byte-compatible with HBase 2.6 and 3.0: the keys each bloom type
 * hashes ({@link dev.cellar.hfile.bloom.BloomKeys}), the chunk bit arrays and their sizing ({@link
 * dev.cellar.hfile.bloom.BloomFilterChunk}, {@link dev.cellar.hfile.bloom.ChunkSizing}), the writer
 * that cuts a store file's keys into chunks ({@link dev.cellar.hfile.bloom.CompoundBloomWriter})
 * and the reader that probes them ({@link dev.cellar.hfile.bloom.CompoundBloomReader}). The format
 * is section 6 of {@code docs/format/hfile-v3.md}.
 *
 * <h2>What this package does not know</h2>
 *
 * <p>Files and blocks. The HFile writer places each chunk payload the writer hands out into a
 * {@code BLOOM_CHUNK} block and tells the writer where it went; at close it stores the meta payload
 * in a {@code GENERAL_BLOOM_META} or {@code DELETE_FAMILY_BLOOM_META} block and the last key in
 * FileInfo ({@code LAST_BLOOM_KEY}). The HFile reader parses that meta payload and loads chunk
 * payloads on demand through a {@link dev.cellar.hfile.bloom.ChunkLoader} backed by its block
 * cache.
 *
 * <p>This package depends only on {@code dev.cellar.memory}, {@code dev.cellar.cell}, {@code
 * dev.cellar.config} and the JDK.
 */
package dev.cellar.hfile.bloom;
