package dev.cellar.hdfs;

import dev.cellar.config.Settings;
import dev.cellar.io.StorageProvider;
import java.io.IOException;
import java.net.URI;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Serves {@code hdfs://} (and {@code viewfs://}, {@code webhdfs://}) database URIs with a {@link
 * HadoopStorage}. Found by {@link java.util.ServiceLoader}; stateless.
 */
public final class HdfsStorageProvider implements StorageProvider {

  private static final Set<String> SCHEMES = Set.of("hdfs", "viewfs", "webhdfs", "swebhdfs");

  @Override
  public boolean serves(String scheme) {
    return SCHEMES.contains(scheme);
  }

  @Override
  public OpenedStorage connect(URI uri, Settings settings) throws IOException {
    URI root =
        URI.create(
            uri.getScheme()
                + "://"
                + (uri.getRawAuthority() == null ? "" : uri.getRawAuthority())
                + "/");
    Configuration conf = HdfsSettings.hadoopConfiguration(settings);
    HadoopStorage storage;
    try {
      storage = HadoopStorage.connect(root, conf, HdfsSettings.from(settings));
    } catch (IOException e) {
      throw new IOException(uri + ": " + e.getMessage(), e);
    }
    return new OpenedStorage() {
      @Override
      public HadoopStorage storage() {
        return storage;
      }

      @Override
      public void close() throws IOException {
        storage.close();
      }
    };
  }
}
