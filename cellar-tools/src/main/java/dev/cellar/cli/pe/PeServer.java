package dev.cellar.cli.pe;

import dev.cellar.Admin;
import dev.cellar.CellarConfig;
import dev.cellar.Table;
import dev.cellar.cli.ServerConnect;
import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import dev.cellar.client.ServerUnreachableException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

/**
 * A {@code cellar serve} a PE run works on ({@code --connect host:port}), through Cellar's client
 * configured from the run's settings (HBase's client keys: {@code hbase.rpc.timeout}, {@code
 * hbase.client.retries.number}, ...), connected through {@link ServerConnect} so that a server that
 * cannot be reached ends the run at once. The block cache and the allocator are the server's, so
 * their figures are not the client's to report.
 */
final class PeServer implements PeTarget {

  private final String address;
  private final CellarClient client;

  private PeServer(String address, CellarClient client) {
    this.address = address;
    this.client = client;
  }

  /**
   * A client of {@code address} whose server has answered; waits are announced on {@code err}.
   *
   * @throws PeException naming a malformed address or setting, or a server that cannot be reached
   */
  static PeServer connect(String address, CellarConfig config, PrintStream err) {
    try {
      return new PeServer(
          address, ServerConnect.open("cellar pe", address, ClientSettings.from(config), err));
    } catch (ServerUnreachableException e) {
      throw new PeException(e.getMessage());
    } catch (IllegalArgumentException | IOException e) {
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
    return PeTables.existing(
        client,
        options,
        describe(),
        "run a write command against it"
            + " first, e.g. 'cellar pe --connect "
            + address
            + " --rows "
            + options.rowsPerThread()
            + " sequentialWrite "
            + options.threads()
            + "', or add --load");
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
