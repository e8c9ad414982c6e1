package dev.cellar.hfile;

import dev.cellar.schema.Compression;

/** The block codec of each compression algorithm Cellar reads and writes. Stateless. */
public final class BlockCodecs {

  private BlockCodecs() {}

  /**
   * The codec for {@code algorithm}.
   *
   * @throws IllegalStateException for NONE, which has no codec, or an algorithm Cellar lacks
   */
  public static BlockCodec of(Compression algorithm) {
    return switch (algorithm) {
      case GZ -> GzipCodec.INSTANCE;
      case SNAPPY -> SnappyCodec.INSTANCE;
      case LZ4 -> Lz4Codec.INSTANCE;
      case ZSTD -> ZstdCodec.INSTANCE;
      case NONE -> throw new IllegalStateException("NONE compression has no codec");
      default ->
          throw new IllegalStateException(
              "compression "
                  + algorithm
                  + " is not supported by Cellar (supported: NONE, GZ, SNAPPY, LZ4, ZSTD)");
    };
  }
}
