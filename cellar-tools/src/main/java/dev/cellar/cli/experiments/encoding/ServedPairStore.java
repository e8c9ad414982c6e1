package dev.cellar.cli.experiments.encoding;

import dev.cellar.Admin;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.experiments.ServerJmx;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * A pair's table in a running {@code cellar serve}, reached through Cellar's client: named {@code
 * cellar_bench_encoding_<encoding>_<compression>} (replaced if it exists), dropped by {@link
 * #close()}. The server's block cache and files are shared with whatever else it serves, so the
 * footprints come from its {@code /jmx} as differences: the store files' bytes since the table was
 * created, and the cache's bytes before and after the caching scan (taken by {@link
 * EncodingExperiment}). Nothing else should write to the server during the run.
 */
final class ServedPairStore implements PairStore {

  /** Long enough for a major compaction of a default-sized table, which the call waits for. */
  private static final String RPC_TIMEOUT_MILLIS = "900000";

  private final CellarClient client;
  private final ServerJmx jmx;
  private final String name;
  private final long storeFileBytesBefore;

  private ServedPairStore(
      CellarClient client, ServerJmx jmx, String name, long storeFileBytesBefore) {
    this.client = client;
    this.jmx = jmx;
    this.name = name;
    this.storeFileBytesBefore = storeFileBytesBefore;
  }

  /** Tables in the server at {@code address}, its figures read from {@code infoAddress}. */
  static Factory factory(String address, String infoAddress) {
    CellarClient client =
        CellarClient.connect(
            address,
            ClientSettings.from(
                CellarConfig.defaults().with("hbase.rpc.timeout", RPC_TIMEOUT_MILLIS)));
    ServerJmx jmx = new ServerJmx(infoAddress, true);
    return new Factory() {
      @Override
      public PairStore create(String encoding, String compression, ColumnFamilyDescriptor family)
          throws IOException {
        String name =
            ("cellar_bench_encoding_" + encoding + "_" + compression).toLowerCase(Locale.ROOT);
        if (client.admin().tableExists(name)) {
          client.admin().dropTable(name);
        }
        long before = jmx.storeFileBytes();
        client.admin().createTable(new TableDescriptor(name, List.of(family)));
        return new ServedPairStore(client, jmx, name, before);
      }

      @Override
      public String describe() {
        return "the server at " + address + " (figures from http://" + infoAddress + "/jmx)";
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  @Override
  public Admin admin() {
    return client.admin();
  }

  @Override
  public Table table() {
    return client.table(name);
  }

  @Override
  public String tableName() {
    return name;
  }

  @Override
  public long diskBytes() throws IOException {
    return jmx.storeFileBytes() - storeFileBytesBefore;
  }

  @Override
  public long cachedBytes() throws IOException {
    return jmx.blockCacheBytes();
  }

  @Override
  public CacheFigures cache() throws IOException {
    return jmx.cache();
  }

  @Override
  public void close() throws IOException {
    client.admin().dropTable(name);
  }
}
