package dev.cellar.hdfs;

import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link MiniHdfs} until the process is stopped, printing its URI: an HDFS on loopback to
 * try Cellar against without a cluster ({@code scripts/minihdfs.sh}). Argument: the number of
 * DataNodes (default 1).
 */
public final class MiniHdfsMain {

  private MiniHdfsMain() {}

  public static void main(String[] args) throws Exception {
    int dataNodes = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    MiniHdfs hdfs = MiniHdfs.start(dataNodes);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    hdfs.close();
                  } catch (Exception e) {
                    System.err.println("minihdfs: stopping failed: " + e);
                  }
                }));
    System.out.println(
        "minihdfs: ready at "
            + hdfs.root()
            + " with "
            + dataNodes
            + " DataNode(s); pass -Ddfs.replication="
            + Math.min(dataNodes, 3)
            + " to clients; Ctrl-C stops it");
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
