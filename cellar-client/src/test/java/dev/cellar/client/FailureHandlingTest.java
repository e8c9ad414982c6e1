package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.client.rpc.CallTimeoutException;
import dev.cellar.client.rpc.ConnectionClosedException;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.server.NettyLeakCheck;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timeouts, retries and HBase's exception classes: a server that never answers costs each attempt
 * its timeout and the operation its retries; a permanent failure is not retried; a retriable one
 * is, with the region looked up again after NotServingRegionException; a disabled table's refusal
 * reaches the caller under HBase's class name.
 */
@ExtendWith(NettyLeakCheck.class)
class FailureHandlingTest {

  @TempDir Path directory;

  @Test
  void aSilentServerTimesEachAttemptOutAndTheOperationFailsAfterItsRetries() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = Thread.ofVirtual().start(() -> swallow(silent));
      ClientSettings settings =
          ClientSettings.defaults().withRpcTimeoutMillis(150).withRetries(2, 10);
      try (CellarClient client =
          CellarClient.connect("127.0.0.1:" + silent.getLocalPort(), settings)) {
        long start = System.nanoTime();
        java.io.UncheckedIOException failure =
            assertThrows(java.io.UncheckedIOException.class, () -> client.table("t"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(
            failure.getCause().getMessage().contains("failed after 3 attempts"),
            failure.getMessage());
        assertTrue(
            failure.getCause().getCause() instanceof CallTimeoutException, failure.toString());
        assertTrue(millis >= 3 * 150, "three attempts of 150 ms each, took " + millis);
        assertTrue(millis < 5_000, "gave up in bounded time, took " + millis);
      } finally {
        acceptor.interrupt();
      }
    }
  }

  private static void swallow(ServerSocket socket) {
    try {
      while (true) {
        Socket accepted = socket.accept();
        Thread.ofVirtual()
            .start(
                () -> {
                  try (InputStream in = accepted.getInputStream()) {
                    in.transferTo(java.io.OutputStream.nullOutputStream());
                  } catch (IOException ignored) {
                    // the client went away
                  }
                });
      }
    } catch (IOException closed) {
      // the test ended
    }
  }

  @Test
  void aServerThatIsNotThereFailsWithAConnectionError() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    try (CellarClient client =
        CellarClient.connect("127.0.0.1:" + port, ClientSettings.defaults().withRetries(1, 5))) {
      java.io.UncheckedIOException failure =
          assertThrows(java.io.UncheckedIOException.class, () -> client.table("t"));
      assertTrue(
          failure.getCause().getCause() instanceof ConnectionClosedException, failure.toString());
      assertTrue(failure.getMessage().contains("cannot connect to"), failure.getMessage());
    }
  }

  @Test
  void permanentFailuresAreNotRetriedAndRetriableOnesAre() throws IOException {
    ClientSettings settings = ClientSettings.defaults().withRetries(4, 1);
    Retrier retrier = new Retrier(settings, new RegionLocator(null, settings));
    AtomicInteger attempts = new AtomicInteger();
    assertThrows(
        IllegalArgumentException.class,
        () ->
            retrier.run(
                "op",
                "t",
                () -> {
                  attempts.incrementAndGet();
                  throw new RemoteException(
                      "org.apache.hadoop.hbase.DoNotRetryIOException", "bad", true, false);
                }));
    assertEquals(1, attempts.get());
    attempts.set(0);
    assertThrows(
        RemoteException.class,
        () ->
            retrier.run(
                "op",
                "t",
                () -> {
                  attempts.incrementAndGet();
                  throw new RemoteException(
                      "org.apache.hadoop.hbase.TableNotEnabledException", "t", false, false);
                }));
    assertEquals(1, attempts.get(), "TableNotEnabledException is permanent by its class");
    attempts.set(0);
    String answer =
        retrier.run(
            "op",
            "t",
            () -> {
              if (attempts.incrementAndGet() < 3) {
                throw new RemoteException(
                    "org.apache.hadoop.hbase.NotServingRegionException", "moved", false, false);
              }
              return "done";
            });
    assertEquals("done", answer);
    assertEquals(3, attempts.get());
    attempts.set(0);
    IOException exhausted =
        assertThrows(
            IOException.class,
            () ->
                retrier.run(
                    "op",
                    "t",
                    () -> {
                      attempts.incrementAndGet();
                      throw new RemoteException("java.io.IOException", "flaky", false, false);
                    }));
    assertEquals(5, attempts.get());
    assertTrue(
        exhausted.getMessage().contains("op failed after 5 attempts"), exhausted.getMessage());
  }

  @Test
  void aDisabledTableIsRefusedUnderHBasesClassAndServesAgainOnceEnabled() throws IOException {
    try (ServedDatabase served = ServedDatabase.start(directory, CellarConfig.defaults())) {
      served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = served.client.table("t");
      byte[] row = "r".getBytes(StandardCharsets.UTF_8);
      table.put(new Put(row).addColumn("f".getBytes(), "q".getBytes(), "v".getBytes()));
      served.client.admin().disableTable("t");
      assertEquals(false, served.client.admin().isEnabled("t"));
      RemoteException refused =
          assertThrows(RemoteException.class, () -> table.get(new Get(row)).close());
      assertTrue(refused.is("TableNotEnabledException"), refused.getMessage());
      served.client.admin().enableTable("t");
      try (var result = table.get(new Get(row))) {
        assertEquals("v", new String(result.value(), StandardCharsets.UTF_8));
      }
      served.client.admin().disableTable("t");
      served.client.admin().truncateTable("t");
      try (var result = table.get(new Get(row))) {
        assertTrue(result.isEmpty());
      }
    }
  }
}
