package dev.cellar.store.wal;

import dev.cellar.schema.Durability;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link WalCrashTest}: appends {@link Durability#SYNC_WAL} entries from
 * several threads until it is killed, printing {@code ack <sequence id> <thread> <k>} once the
 * {@code k}-th entry of a thread is acknowledged. Entries are small and the roll size is 64 KiB, so
 * a run rolls a few times.
 *
 * <p>Arguments: log directory, round, seed, threads.
 */
public final class WalWriterProcess {

  private WalWriterProcess() {}

  public static void main(String[] args) throws Exception {
    Path directory = Path.of(args[0]);
    int round = Integer.parseInt(args[1]);
    long seed = Long.parseLong(args[2]);
    int threads = Integer.parseInt(args[3]);
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults().withRollSize(64 * 1024));
    PrintStream out = System.out;
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread.ofPlatform()
          .name("writer-" + t)
          .start(
              () -> {
                try {
                  for (int k = 0; ; k++) {
                    long id =
                        wal.append(
                            WalCrashTest.table(round, thread),
                            WalCrashTest.cells(seed, round, thread, k),
                            Durability.SYNC_WAL);
                    synchronized (out) {
                      out.println("ack " + id + " " + thread + " " + k);
                      out.flush();
                    }
                  }
                } catch (Exception e) {
                  e.printStackTrace();
                  System.exit(1);
                }
              });
    }
  }
}
