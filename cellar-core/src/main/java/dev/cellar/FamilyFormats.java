package dev.cellar;

/**
 * Translates between a column family's public attribute values ({@link BloomType}, {@link
 * DataBlockEncoding}, {@link Compression}) and the file format's own enums, which carry codecs,
 * encoders and on-disk ids the API does not show. The constants share their names; parsing goes
 * through the format's enums, so both accept the same spellings. Stateless.
 */
final class FamilyFormats {

  private FamilyFormats() {}

  static BloomType parseBloomType(String name) {
    return BloomType.valueOf(dev.cellar.hfile.bloom.BloomType.parse(name).name());
  }

  static DataBlockEncoding parseEncoding(String name) {
    return DataBlockEncoding.valueOf(
        dev.cellar.hfile.encoding.DataBlockEncoding.fromName(name).name());
  }

  /**
   * The public name of {@code algorithm}, one HBase knows.
   *
   * @throws IllegalArgumentException if Cellar has no codec for it
   */
  static Compression supported(String family, dev.cellar.hfile.Compression algorithm) {
    if (!algorithm.isSupported()) {
      throw new IllegalArgumentException(
          "family "
              + family
              + ": COMPRESSION "
              + algorithm
              + " is not available; use NONE, GZ, SNAPPY, LZ4 or ZSTD");
    }
    return Compression.valueOf(algorithm.name());
  }

  static dev.cellar.hfile.bloom.BloomType format(BloomType type) {
    return dev.cellar.hfile.bloom.BloomType.valueOf(type.name());
  }

  static dev.cellar.hfile.encoding.DataBlockEncoding format(DataBlockEncoding encoding) {
    return dev.cellar.hfile.encoding.DataBlockEncoding.valueOf(encoding.name());
  }

  static dev.cellar.hfile.Compression format(Compression compression) {
    return dev.cellar.hfile.Compression.valueOf(compression.name());
  }
}
