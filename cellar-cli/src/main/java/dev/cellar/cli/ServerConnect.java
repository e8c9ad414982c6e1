package dev.cellar.cli;

import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import dev.cellar.client.ServerProbe;
import dev.cellar.client.ServerUnreachableException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * How a command-line tool connects to {@code cellar serve} ({@code --connect HOST:PORT}) without
 * ever waiting in silence. It first probes the address ({@link ServerProbe}): an unknown host or a
 * refused connection fails at once with one line. Then it asks the server for its tables through
 * the client, with HBase's retries, so that a server that listens but is busy or starting is waited
 * for as HBase's client would. Either wait, once it passes a second, is announced on standard error
 * with what it waits for.
 */
public final class ServerConnect {

  private static final Duration NOTICE_DELAY = Duration.ofSeconds(1);

  private ServerConnect() {}

  /**
   * A client of {@code hostAndPort} whose server has answered; {@code tool} (e.g. {@code "cellar
   * shell"}) starts the notices printed on {@code err}.
   *
   * @throws ServerUnreachableException if nothing listens at the address
   * @throws IOException if the server listens but did not answer within HBase's retries
   * @throws IllegalArgumentException if the address is not {@code host:port}
   */
  public static CellarClient open(
      String tool, String hostAndPort, ClientSettings settings, PrintStream err)
      throws IOException {
    try (WaitNotice notice =
        WaitNotice.after(
            NOTICE_DELAY,
            err,
            tool
                + ": waiting for "
                + hostAndPort
                + " to accept a TCP connection (for up to "
                + settings.connectTimeoutMillis()
                + " ms)")) {
      ServerProbe.reach(hostAndPort, settings.connectTimeoutMillis());
    }
    CellarClient client = CellarClient.connect(hostAndPort, settings);
    try (WaitNotice notice =
        WaitNotice.after(
            NOTICE_DELAY,
            err,
            tool
                + ": "
                + hostAndPort
                + " accepts connections but has not answered yet; retrying as HBase's client does (up"
                + " to "
                + settings.retries()
                + " retries within "
                + settings.operationTimeoutMillis() / 1000
                + " s)")) {
      client.admin().listTables();
      return client;
    } catch (UncheckedIOException e) {
      client.close();
      throw e.getCause();
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }
}
