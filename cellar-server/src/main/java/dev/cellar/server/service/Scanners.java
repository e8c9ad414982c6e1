package dev.cellar.server.service;

import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.rpc.RpcException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open scanners, by id, each with a lease: a scanner not called for the lease period ({@code
 * hbase.client.scanner.timeout.period}) is closed by the sweeper thread {@value #SWEEPER_THREAD},
 * releasing what it pins, as when a client disappears mid-scan.
 *
 * <p><b>Concurrency.</b> The map is concurrent. Each scanner has a lock held by the call using it
 * and by the sweeper while closing it, so a scanner is never read and closed at once; the sweeper
 * only tries the lock (a scanner in use is not expired). Ids are never reused in a process.
 *
 * <p><b>Ownership.</b> A scanner answers only the connection that opened it: another connection
 * naming its id gets UnknownScannerException, as for an id never handed out, so no client reads or
 * closes another's scan (HBase's client reopens a scan whose connection broke, after its last row).
 */
final class Scanners implements AutoCloseable {

  static final String SWEEPER_THREAD = "cellar-scanner-leases";
  private static final Logger LOG = LoggerFactory.getLogger(Scanners.class);

  /** One open scan and its position in the client's call sequence. */
  static final class Open {
    final long id;
    final RowSource rows;
    final ConvertedFilter filter;
    final int batch;
    final long maxResultSize;
    final boolean needCursor;

    /** The connection that opened the scanner, the only one whose calls reach it. */
    final long connection;

    /** Whether the scan goes on in the table's next region once this one's rows end. */
    final boolean moreRegions;

    final ReentrantLock lock = new ReentrantLock();
    long remainingRows;
    long nextCallSeq;
    volatile long leaseDeadline;
    boolean closed;

    Open(
        long id,
        RowSource rows,
        ConvertedFilter filter,
        int batch,
        long maxResultSize,
        boolean needCursor,
        long limit,
        boolean moreRegions,
        long connection) {
      this.id = id;
      this.connection = connection;
      this.moreRegions = moreRegions;
      this.needCursor = needCursor;
      this.rows = rows;
      this.filter = filter;
      this.batch = batch;
      this.maxResultSize = maxResultSize;
      this.remainingRows = limit;
    }

    /** Closes the rows; the caller holds the lock. */
    void closeLocked() {
      if (!closed) {
        closed = true;
        rows.close();
      }
    }
  }

  private final Map<Long, Open> open = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final long leaseMillis;
  private final LongSupplier clock;
  private final ScheduledExecutorService sweeper;

  Scanners(long leaseMillis, LongSupplier clock) {
    this.leaseMillis = leaseMillis;
    this.clock = clock;
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name(SWEEPER_THREAD).daemon().factory());
    long period = Math.max(10, Math.min(1000, leaseMillis / 4));
    sweeper.scheduleWithFixedDelay(this::expire, period, period, TimeUnit.MILLISECONDS);
  }

  long leaseMillis() {
    return leaseMillis;
  }

  /** Registers a new scanner (its lease starts now). */
  Open register(
      RowSource rows,
      ConvertedFilter filter,
      int batch,
      long maxResultSize,
      boolean needCursor,
      long limit,
      boolean moreRegions,
      long connection) {
    Open scanner =
        new Open(
            ids.incrementAndGet(),
            rows,
            filter,
            batch,
            maxResultSize,
            needCursor,
            limit,
            moreRegions,
            connection);
    scanner.leaseDeadline = clock.getAsLong() + leaseMillis;
    open.put(scanner.id, scanner);
    return scanner;
  }

  /**
   * The scanner {@code id}, locked for the caller and its lease renewed; the caller unlocks it.
   *
   * @throws RpcException UnknownScannerException for an id that is not open (expired, closed)
   */
  Open acquire(long id, long connection) throws RpcException {
    Open scanner = open.get(id);
    if (scanner != null && scanner.connection == connection) {
      scanner.lock.lock();
      if (!scanner.closed) {
        scanner.leaseDeadline = clock.getAsLong() + leaseMillis;
        return scanner;
      }
      scanner.lock.unlock();
    }
    throw RpcException.doNotRetry(
        RpcException.UNKNOWN_SCANNER,
        "Unknown scanner '"
            + id
            + "'. This can happen due to any of the following reasons: a) Scanner id given is"
            + " wrong, b) Scanner lease expired because of long wait between consecutive client"
            + " checkins, c) Server may be closing down, d) the scan was closed.");
  }

  /** Closes a scanner the caller holds locked and forgets it. */
  void closeLocked(Open scanner) {
    scanner.closeLocked();
    open.remove(scanner.id);
  }

  /** Whether the scanner {@code id} is open for the calls of {@code connection}. */
  boolean isOpen(long id, long connection) {
    Open scanner = open.get(id);
    return scanner != null && scanner.connection == connection;
  }

  int size() {
    return open.size();
  }

  private void expire() {
    long now = clock.getAsLong();
    for (Open scanner : open.values()) {
      if (scanner.leaseDeadline <= now && scanner.lock.tryLock()) {
        try {
          if (scanner.leaseDeadline <= now && !scanner.closed) {
            LOG.info(
                "scanner {} lease expired after {} ms without a call; closed",
                scanner.id,
                leaseMillis);
            closeLocked(scanner);
          }
        } finally {
          scanner.lock.unlock();
        }
      }
    }
  }

  /** Stops the sweeper and closes every scanner (waiting for calls using them). */
  @Override
  public void close() {
    sweeper.shutdownNow();
    try {
      sweeper.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Open scanner : open.values()) {
      scanner.lock.lock();
      try {
        closeLocked(scanner);
      } finally {
        scanner.lock.unlock();
      }
    }
  }
}
