/**
 * HBase's data block encodings: how the cells of one HFile data block become the block's
 * uncompressed payload, and how a reader walks and seeks them in place.
 *
 * <p>{@link dev.cellar.schema.DataBlockEncoding} names the five encodings HBase 2.x and 3.x read
 * (NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1). Each has a {@link
 * dev.cellar.hfile.encoding.BlockEncoder} (one per file writer, reused per block) and a {@link
 * dev.cellar.hfile.encoding.BlockSeeker} (one per reader thread, reused across blocks), both
 * configured by the file's {@link dev.cellar.hfile.encoding.EncodingContext}. The byte layout of
 * each encoding is documented at the top of its encoder class; the format specification is {@code
 * docs/format/hfile-v3.md}, section 4.
 *
 * <h2>Byte compatibility</h2>
 *
 * <p>Encoders write exactly the bytes HBase 2.6's encoders write for the same cells, including the
 * common-prefix rule, the DIFF timestamp choice and the LRU tag dictionary; the tests compare
 * payloads with HBase's own encoders byte for byte and decode HBase's payloads.
 *
 * <h2>Reading in place</h2>
 *
 * <p>Seekers read the payload where it lies (a pooled off-heap buffer or a cached block) and expose
 * the current cell as a flyweight: a view of the block for NONE and ROW_INDEX_V1; for the delta
 * encodings a key rebuilt in a reusable scratch buffer, with the value (and uncompressed tags)
 * still viewed in the block. Malformed bytes raise {@link
 * dev.cellar.hfile.encoding.MalformedBlockException} with the payload offset; the HFile layer adds
 * the file and block.
 *
 * <h2>Seek indexes</h2>
 *
 * <p>HBase's formats give NONE, PREFIX, DIFF and FAST_DIFF blocks no restart points, so without
 * help a seek walks or decodes from a block's first cell. {@link
 * dev.cellar.hfile.encoding.BlockSeeker#indexBlock()} walks a block once and returns a {@link
 * dev.cellar.hfile.encoding.SeekIndex} (cell offsets, or checkpoints to resume decoding from) that
 * seekers set on the same block bytes binary-search; the HFile layer keeps it beside a cached
 * block. It is derived from the block and never written.
 *
 * <p>This package depends only on {@code dev.cellar.memory}, {@code dev.cellar.cell} and the JDK.
 */
package dev.cellar.hfile.encoding;
