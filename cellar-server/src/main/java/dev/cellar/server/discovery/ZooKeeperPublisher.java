package dev.cellar.server.discovery;

import dev.cellar.server.catalog.ServerIdentity;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the server in ZooKeeper as HBase's master and region server publish themselves: the
 * cluster id and hbase:meta's location in persistent nodes, overwritten at every start; the active
 * master and the region server in ephemeral nodes of this publisher's session, so they go when the
 * server stops (or a session timeout after it crashes). A stale ephemeral node of an earlier run
 * (another session, not yet expired) is replaced.
 *
 * <p><b>Failure.</b> {@link #start} fails, naming the quorum, when no session comes up within the
 * connect timeout or a node cannot be written. When the session expires later (the server was cut
 * off from ZooKeeper longer than the session timeout), the ephemeral nodes are gone: a thread of
 * its own opens a new session and publishes again, retrying until it succeeds or the publisher
 * closes; clients that look meanwhile find no master.
 *
 * <p><b>Concurrency.</b> ZooKeeper's event thread only signals; the republishing thread and {@link
 * #close()} swap the session under this object's lock.
 */
final class ZooKeeperPublisher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperPublisher.class);
  private static final long RETRY_PAUSE_MILLIS = 1_000;

  private final String connectString;
  private final int sessionTimeoutMillis;
  private final int connectTimeoutMillis;
  private final ZNodeLayout layout;
  private final ServerIdentity identity;
  private final int infoPort;
  private final ExecutorService republisher =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().name("cellar-zookeeper-publisher").daemon().factory());
  private ZooKeeper session;
  private boolean closed;

  private ZooKeeperPublisher(
      String connectString,
      int sessionTimeoutMillis,
      int connectTimeoutMillis,
      ZNodeLayout layout,
      ServerIdentity identity,
      int infoPort) {
    this.connectString = connectString;
    this.sessionTimeoutMillis = sessionTimeoutMillis;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.layout = layout;
    this.identity = identity;
    this.infoPort = infoPort;
  }

  /**
   * Connects to {@code connectString} ({@code host:port,...}) and publishes {@code identity} under
   * {@code parent}.
   *
   * @throws IOException naming the quorum when ZooKeeper is unreachable or refuses the nodes
   */
  static ZooKeeperPublisher start(
      String connectString,
      String parent,
      int sessionTimeoutMillis,
      int connectTimeoutMillis,
      ServerIdentity identity,
      int infoPort)
      throws IOException {
    ZooKeeperPublisher publisher =
        new ZooKeeperPublisher(
            connectString,
            sessionTimeoutMillis,
            connectTimeoutMillis,
            new ZNodeLayout(parent),
            identity,
            infoPort);
    try {
      publisher.publish();
    } catch (IOException | RuntimeException e) {
      publisher.close();
      throw e;
    }
    LOG.info(
        "published {} in ZooKeeper at {} under {}", identity.hostAndPort(), connectString, parent);
    return publisher;
  }

  /** The quorum published to, {@code host:port,...}. */
  String connectString() {
    return connectString;
  }

  private synchronized void publish() throws IOException {
    if (closed) {
      return;
    }
    closeSession();
    session = connect();
    try {
      createParents(layout.regionServers());
      writePersistent(layout.clusterId(), ZNodeContent.clusterId(identity.clusterId()));
      writePersistent(layout.metaRegionServer(), ZNodeContent.metaRegionServer(identity));
      writeEphemeral(layout.master(), ZNodeContent.master(identity, infoPort));
      writeEphemeral(layout.regionServer(identity), ZNodeContent.regionServer(infoPort));
    } catch (KeeperException e) {
      throw new IOException(
          "ZooKeeper at " + connectString + " refused the server's nodes: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted publishing in ZooKeeper at " + connectString, e);
    }
  }

  private ZooKeeper connect() throws IOException {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zooKeeper =
        new ZooKeeper(connectString, sessionTimeoutMillis, event -> onEvent(event, connected));
    try {
      if (connected.await(connectTimeoutMillis, TimeUnit.MILLISECONDS)) {
        return zooKeeper;
      }
      closeQuietly(zooKeeper);
      throw new IOException(
          "ZooKeeper unreachable: no session with "
              + connectString
              + " within "
              + connectTimeoutMillis
              + " ms (hbase.zookeeper.quorum, hbase.zookeeper.property.clientPort; "
              + "cellar.server.zookeeper.connect.timeout)");
    } catch (InterruptedException e) {
      closeQuietly(zooKeeper);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted connecting to ZooKeeper at " + connectString, e);
    }
  }

  private void onEvent(WatchedEvent event, CountDownLatch connected) {
    if (event.getState() == KeeperState.SyncConnected) {
      connected.countDown();
    } else if (event.getState() == KeeperState.Expired) {
      LOG.warn("ZooKeeper session with {} expired; publishing again", connectString);
      try {
        republisher.execute(this::republish);
      } catch (RejectedExecutionException closing) {
        // the publisher is closing: nothing to publish again
      }
    }
  }

  private void republish() {
    while (true) {
      try {
        publish();
        return;
      } catch (IOException e) {
        LOG.warn("publishing in ZooKeeper failed, retrying: {}", e.getMessage());
      }
      try {
        Thread.sleep(RETRY_PAUSE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void createParents(String path) throws KeeperException, InterruptedException {
    for (int slash = path.indexOf('/', 1); ; slash = path.indexOf('/', slash + 1)) {
      String prefix = slash < 0 ? path : path.substring(0, slash);
      try {
        session.create(prefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
      } catch (KeeperException.NodeExistsException exists) {
        // made before, by this server or another writer
      }
      if (slash < 0) {
        return;
      }
    }
  }

  private void writePersistent(String path, byte[] data)
      throws KeeperException, InterruptedException {
    try {
      session.setData(path, data, -1);
    } catch (KeeperException.NoNodeException absent) {
      session.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }
  }

  private void writeEphemeral(String path, byte[] data)
      throws KeeperException, InterruptedException {
    try {
      session.delete(path, -1);
    } catch (KeeperException.NoNodeException absent) {
      // no earlier run's node left
    }
    session.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
  }

  private void closeSession() {
    if (session != null) {
      closeQuietly(session);
      session = null;
    }
  }

  private static void closeQuietly(ZooKeeper zooKeeper) {
    try {
      zooKeeper.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Closes the session, which takes the ephemeral nodes (master, region server) with it. */
  @Override
  public void close() {
    republisher.shutdownNow();
    synchronized (this) {
      closed = true;
      closeSession();
    }
  }
}
