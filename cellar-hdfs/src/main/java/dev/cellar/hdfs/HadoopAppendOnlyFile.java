package dev.cellar.hdfs;

import dev.cellar.io.AppendOnlyFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;

/**
 * A new file on a Hadoop file system, written through its output stream. {@link #syncData()} is an
 * {@code hflush} (the bytes are in the memory of every DataNode of the pipeline and visible to
 * readers: what HBase acknowledges a SYNC_WAL write after), or an {@code hsync} when {@code
 * hbase.wal.hsync} asks; {@link #sync()} is an {@code hsync} (on the DataNodes' disks). A failed
 * DataNode pipeline fails the call, so nothing waiting on it is acknowledged; a pipeline that lost
 * a DataNode HDFS cannot replace fails in one line naming the setting ({@link
 * DataNodeReplacement}).
 *
 * <p>The stream takes bytes from heap arrays: an off-heap buffer is copied through one reused array
 * (the log's staging buffer is off-heap). Not thread-safe, like every {@link AppendOnlyFile}.
 */
final class HadoopAppendOnlyFile extends AppendOnlyFile {

  private static final int COPY_SIZE = 64 * 1024;

  private final Path file;
  private final short replication;
  private final FSDataOutputStream out;
  private final boolean hsyncOnSyncData;
  private byte[] copy;

  /**
   * @param file {@code path} on the file system, for messages
   * @param replication the replication {@code file} was created with
   */
  HadoopAppendOnlyFile(
      java.nio.file.Path path,
      Path file,
      short replication,
      FSDataOutputStream out,
      boolean hsyncOnSyncData) {
    super(path);
    this.file = file;
    this.replication = replication;
    this.out = out;
    this.hsyncOnSyncData = hsyncOnSyncData;
  }

  @Override
  public void append(ByteBuffer[] buffers) throws IOException {
    for (ByteBuffer buffer : buffers) {
      write(buffer);
    }
  }

  @Override
  protected void write(ByteBuffer buffer) throws IOException {
    int length = buffer.remaining();
    try {
      if (buffer.hasArray()) {
        out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), length);
        buffer.position(buffer.limit());
      } else {
        if (copy == null) {
          copy = new byte[COPY_SIZE];
        }
        while (buffer.hasRemaining()) {
          int chunk = Math.min(copy.length, buffer.remaining());
          buffer.get(copy, 0, chunk);
          out.write(copy, 0, chunk);
        }
      }
    } catch (IOException e) {
      throw failed(e);
    }
    advance(length);
  }

  @Override
  public void sync() throws IOException {
    try {
      out.hsync();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void syncData() throws IOException {
    try {
      if (hsyncOnSyncData) {
        out.hsync();
      } else {
        out.hflush();
      }
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** {@code e} as it is, or in one line if HDFS refused to go on without a replacement DataNode. */
  private IOException failed(IOException e) {
    return DataNodeReplacement.refused(e) ? DataNodeReplacement.explain(file, replication, e) : e;
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } catch (IOException e) {
      throw failed(e);
    }
  }
}
