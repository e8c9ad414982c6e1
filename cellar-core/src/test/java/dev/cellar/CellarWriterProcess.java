package dev.cellar;

import java.nio.file.Path;
import java.util.Map;

/**
 * The child process of {@link CellarCrashTest}: writes rows of two columns with SYNC_WAL, forever,
 * printing the number of each row once its put returned, until its parent kills it. Small flush
 * sizes make it flush and compact as it goes.
 *
 * <p>Arguments: database directory, first row.
 */
public final class CellarWriterProcess {

  private CellarWriterProcess() {}

  public static void main(String[] args) throws Exception {
    Cellar cellar = Cellar.open(Path.of(args[0]), CellarCrashTest.config());
    if (!cellar.admin().tableExists("crash")) {
      cellar.admin().createTable(TableDescriptor.of("crash",
          ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "4096"))));
    }
    Table table = cellar.table("crash");
    for (int i = Integer.parseInt(args[1]); ; i++) {
      table.put(CellarCrashTest.put(i).setDurability(Durability.SYNC_WAL));
      System.out.println("acked " + i);
      System.out.flush();
    }
  }
}
