package dev.cellar.client;

import dev.cellar.Mutation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Batches a table's puts and deletes as HBase's BufferedMutator does: {@link #mutate} only buffers,
 * until the buffered mutations' cells reach the write buffer size ({@code
 * hbase.client.write.buffer}, 2 MiB by default), when the mutation that crossed it sends the whole
 * buffer as one Multi call; {@link #flush()} sends what is buffered, and {@link #close()} flushes
 * and ends the mutator. A mutation is durable only once a flush that sent it has returned.
 *
 * <p><b>Failures.</b> A flush that fails (after the client's retries) throws, and the mutations it
 * sent are dropped from the buffer, as HBase reports them through
 * RetriesExhaustedWithDetailsException: the exception names how many and the first row.
 *
 * <p>Thread-safe: any number of threads may mutate; mutations and flushes are serialized on the
 * mutator, so each flush sends the buffer as the calling thread left it.
 */
public final class BufferedMutator implements AutoCloseable {

  private final RemoteTable table;
  private final long bufferSize;
  private List<Mutation> buffer = new ArrayList<>();
  private long buffered;
  private boolean closed;

  BufferedMutator(RemoteTable table, long bufferSize) {
    this.table = table;
    this.bufferSize = bufferSize;
  }

  public String tableName() {
    return table.name();
  }

  /** The write buffer size, in bytes of cells. */
  public long writeBufferSize() {
    return bufferSize;
  }

  /** Buffers {@code mutation}; sends the buffer if it is now full. */
  public synchronized void mutate(Mutation mutation) throws IOException {
    requireOpen();
    buffer.add(mutation);
    buffered += CellBlocks.size(mutation);
    if (buffered >= bufferSize) {
      flush();
    }
  }

  public synchronized void mutate(List<? extends Mutation> mutations) throws IOException {
    requireOpen();
    for (Mutation mutation : mutations) {
      buffer.add(mutation);
      buffered += CellBlocks.size(mutation);
    }
    if (buffered >= bufferSize) {
      flush();
    }
  }

  /** The bytes of cells buffered and not yet sent. */
  public synchronized long bufferedBytes() {
    return buffered;
  }

  /** Sends every buffered mutation and waits for the server to apply them. */
  public synchronized void flush() throws IOException {
    if (buffer.isEmpty()) {
      return;
    }
    List<Mutation> sending = buffer;
    buffer = new ArrayList<>();
    buffered = 0;
    try {
      table.batch(sending);
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          sending.size()
              + " buffered mutations of table "
              + table.name()
              + " failed (first row "
              + printable(sending.get(0).row())
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private static String printable(byte[] row) {
    return dev.cellar.cell.Bytes.toStringBinary(row);
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the BufferedMutator of " + table.name() + " was closed");
    }
  }

  /** Flushes, then refuses further mutations. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      flush();
    } finally {
      closed = true;
    }
  }
}
