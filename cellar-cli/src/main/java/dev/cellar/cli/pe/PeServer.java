package dev.cellar.cli.pe;

import dev.cellar.Admin;
import dev.cellar.CellarConfig;
import dev.cellar.Table;
import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import java.io.IOException;
import java.util.List;

/**
 * A {@code cellar serve} a PE run works on ({@code --connect host:port}), through Cellar's client
 * configured from the run's settings (HBase's client keys: {@code hbase.rpc.timeout}, {@code
 * hbase.client.retries.number}, ...). The block cache and the allocator are the server's, so
 * their figures are not the client's to report.
 */
final class PeServer implements PeTarget {

  private final String address;
  private final CellarClient client;

  private PeServer(String address, CellarClient client) {
    this.address = address;
    this.client = client;
  }

  /** A client of {@code address}. @throws PeException naming a malformed address or setting */
  static PeServer connect(String address, CellarConfig config) {
    try {
      return new PeServer(address, CellarClient.connect(address,
          ClientSettings.from(config)));
    } catch (IllegalArgumentException e) {
      throw new PeException("--connect " + address + ": " + e.getMessage());
    }
  }

  @Override
  public String describe() {
    return "the server at " + address;
  }

  @Override
  public Admin admin() {
    return client.admin();
  }

  @Override
  public Table createTableIfMissing(PeOptions options) throws IOException {
    return PeTables.createIfMissing(client, options);
  }

  @Override
  public Table existingTable(PeOptions options) throws IOException {
    return PeTables.existing(client, options, describe(), "run a write command against it"
        + " first, e.g. 'cellar pe --connect " + address + " --rows " + options.rowsPerThread()
        + " sequentialWrite " + options.threads() + "', or add --load");
  }

  @Override
  public CacheFigures cacheFigures() {
    return new CacheFigures(List.of());
  }

  @Override
  public double heapAllocationRatioSinceLastCall() {
    return Double.NaN;
  }

  @Override
  public String server() {
    return address;
  }

  @Override
  public void close() {
    client.close();
  }
}
