/**
 * HBase 2.x's RPC protocol over Netty: preambles, the connection header, request and response
 * frames, cell blocks in HBase's KeyValue codec and exceptions under HBase's class names.
 *
 * <h2>Where the messages come from</h2>
 *
 * The protobuf messages are HBase's own generated classes from the published {@code
 * org.apache.hbase:hbase-protocol-shaded} artifact (with its relocated runtime {@code
 * hbase-shaded-protobuf}), not classes generated here from HBase's {@code .proto} files. Reasons:
 *
 * <ul>
 *   <li><b>Fidelity.</b> They are the very classes the 2.6 client serializes with (the same gencode
 *       and runtime version, the same field defaults and unknown-field handling), so a field Cellar
 *       reads or writes cannot drift from what the client means by it.
 *   <li><b>Build.</b> Generating needs {@code protoc}, a native binary the build would have to
 *       download per platform; the artifact needs nothing but Maven Central, and its two
 *       dependencies (the relocated runtime and an annotations jar, excluded) bring no Hadoop.
 *   <li><b>Speed.</b> Generated code is the same either way (full runtime, same protoc generation),
 *       so parsing and serializing cost the same; requests are parsed straight from the pooled
 *       direct frame buffer through {@code CodedInputStream}.
 *   <li><b>Cost.</b> About 9 MB of jars (7.2 MB of messages for all 39 of HBase's files, most of
 *       them unused, and the 1.9 MB runtime) on the server's class path, and a second protobuf
 *       runtime beside the one {@code cellar-core} uses for HFile trailers; neither is on an
 *       embedded user's class path. Generating only the eight files the server needs would save
 *       about 5 MB, which does not outweigh the points above.
 * </ul>
 */
package dev.cellar.server.rpc;
