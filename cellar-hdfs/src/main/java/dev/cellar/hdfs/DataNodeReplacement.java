package dev.cellar.hdfs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * HDFS's refusal to go on writing through a DataNode pipeline that lost a node and found none to
 * take its place, in one line naming the setting to change.
 *
 * <p>A writing client asks for a replacement DataNode only when it sets a block's pipeline up
 * again: after a DataNode of it failed or restarted, or to append to a block already written. Under
 * the {@code DEFAULT} {@code dfs.client.block.write.replace-datanode-on-failure.policy} it must get
 * one when the file's replication is 3 or more and the pipeline holds fewer DataNodes than that
 * (for a block neither hflushed nor appended to, at most half as many; a log segment's block is
 * hflushed). On a cluster with fewer DataNodes than {@code dfs.replication} there is none to get,
 * and the write fails with Hadoop's "Failed to replace a bad datanode on the existing pipeline",
 * which names the policy. Cellar leaves the policy as the site sets it, as HBase does (it sets none
 * of these settings, and its default log writer recovers no pipeline at all: it rolls to a new
 * file): going on with fewer DataNodes ({@code NEVER}, or {@code best-effort}) would acknowledge
 * log entries held by fewer DataNodes than the site asks for. On a small cluster the setting to
 * change is the replication.
 *
 * <p>The refusal has no exception type of its own, so it is known by its message, which Hadoop 2
 * and 3 share. Stateless.
 */
final class DataNodeReplacement {

  private static final String REFUSAL = "Failed to replace a bad datanode";

  private DataNodeReplacement() {}

  /** Whether {@code failure}, or one of its causes, is HDFS's refusal to go on. */
  static boolean refused(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && cause.getMessage().startsWith(REFUSAL)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The {@link #refused} {@code failure} of a write to {@code file}, created with {@code
   * replication} replicas, as one line naming {@code dfs.replication}, caused by {@code failure}.
   */
  static IOException explain(Path file, short replication, IOException failure) {
    return new IOException(
        file
            + ": a DataNode of its write pipeline failed and HDFS found no"
            + " other to take its place, which the file's replication of "
            + replication
            + " requires; on a cluster with fewer DataNodes than that, set dfs.replication to the"
            + " number of DataNodes",
        failure);
  }
}
