package dev.cellar;

import dev.cellar.schema.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The child process of {@link CellarCrashTest}: writes rows of two columns with SYNC_WAL, forever,
 * alone ({@code put(Put)}) or in batches of two to seven ({@code put(List)}), printing the number
 * of the last row of each write once it returned, until its parent kills it. Small flush sizes make
 * it flush and compact as it goes.
 *
 * <p>Arguments: database directory or URI, first row, then settings as {@code key=value}.
 */
public final class CellarWriterProcess {

  private CellarWriterProcess() {}

  public static void main(String[] args) throws Exception {
    Cellar cellar =
        Cellar.open(args[0], CellarCrashTest.config(List.of(args).subList(2, args.length)));
    if (!cellar.admin().tableExists("crash")) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "crash", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "4096"))),
              new byte[][] {CellarCrashTest.row(150), CellarCrashTest.row(700)});
    }
    Table table = cellar.table("crash");
    for (int i = Integer.parseInt(args[1]), write = 0; ; write++) {
      int rows = write % 2 == 0 ? 1 : 2 + write % 6;
      if (rows == 1) {
        table.put(CellarCrashTest.put(i).setDurability(Durability.SYNC_WAL));
      } else {
        List<Put> batch = new ArrayList<>();
        for (int r = i; r < i + rows; r++) {
          batch.add(CellarCrashTest.put(r));
        }
        table.put(batch);
      }
      i += rows;
      System.out.println("acked " + (i - 1));
      System.out.flush();
    }
  }
}
