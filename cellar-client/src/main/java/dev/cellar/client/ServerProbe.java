package dev.cellar.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Locale;

/**
 * Finds out at once whether a server listens at {@code host:port}: resolves the host, then opens
 * and closes a plain TCP connection to it. HBase's retry policy (16 attempts over about two
 * minutes) is meant for a server that is up but busy, splitting or restarting; against an unknown
 * host or a closed port it only delays the answer. A tool probes first, so that these fail in a
 * moment with a message saying why, and the client's retries are left for a server that listens.
 */
public final class ServerProbe {

  private ServerProbe() {}

  /**
   * Returns when a TCP connection to {@code hostAndPort} is accepted within {@code timeoutMillis}.
   *
   * @throws ServerUnreachableException if the host is unknown, or the connection was refused or not
   *     accepted in time
   * @throws IllegalArgumentException if the address is not {@code host:port}
   */
  public static void reach(String hostAndPort, int timeoutMillis)
      throws ServerUnreachableException {
    InetSocketAddress address = CellarClient.address(hostAndPort);
    String cannot = "cannot connect to " + hostAndPort + ": ";
    if (address.isUnresolved()) {
      throw new ServerUnreachableException(
          cannot + "unknown host " + address.getHostString() + " (tried to resolve it)");
    }
    String tried =
        " (tried a TCP connection to "
            + address.getAddress().getHostAddress()
            + " port "
            + address.getPort();
    try (Socket socket = new Socket()) {
      socket.connect(address, timeoutMillis);
    } catch (SocketTimeoutException e) {
      throw new ServerUnreachableException(
          cannot + "no answer" + tried + " for " + timeoutMillis + " ms)");
    } catch (ConnectException e) {
      String reason =
          e.getMessage() == null ? "connection failed" : e.getMessage().toLowerCase(Locale.ROOT);
      throw new ServerUnreachableException(
          cannot + reason + tried + "; is cellar serve running there?)");
    } catch (IOException e) {
      throw new ServerUnreachableException(cannot + e.getMessage() + tried + ")");
    }
  }
}
