package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Delete;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.TableDescriptor;
import dev.cellar.server.NettyLeakCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * BufferedMutator keeps mutations until its buffer fills (then sends them all at once), on flush
 * and on close; a failed flush names the mutations it lost.
 */
@ExtendWith(NettyLeakCheck.class)
class BufferedMutatorTest {

  @TempDir Path directory;

  private static Put put(int i) {
    // 232 bytes in a cell block: 4 + 8 + a key of 20 + a value of 200
    return new Put(String.format("row-%02d", i).getBytes(StandardCharsets.UTF_8))
        .addColumn("f".getBytes(), "q".getBytes(), new byte[200]);
  }

  private static int count(CellarClient client) throws IOException {
    int rows = 0;
    try (ResultScanner scanner = client.table("t").scanner(new Scan())) {
      for (Result result : scanner) {
        result.close();
        rows++;
      }
    }
    return rows;
  }

  @Test
  void mutationsGoOutWhenTheBufferFillsOnFlushAndOnClose() throws IOException {
    ClientSettings settings = ClientSettings.defaults().withWriteBufferSize(900).withRetries(2, 10);
    try (ServedDatabase served =
        ServedDatabase.start(directory, CellarConfig.defaults(), settings)) {
      served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      try (BufferedMutator mutator = served.client.bufferedMutator("t")) {
        mutator.mutate(put(0));
        mutator.mutate(put(1));
        assertEquals(0, count(served.client), "buffered, not sent");
        assertTrue(mutator.bufferedBytes() > 400);
        mutator.mutate(put(2));
        mutator.mutate(put(3));
        assertEquals(4, count(served.client), "the fourth put filled the buffer");
        assertEquals(0, mutator.bufferedBytes());
        mutator.mutate(put(4));
        mutator.mutate(new Delete(put(0).row()));
        mutator.flush();
        assertEquals(4, count(served.client));
        mutator.mutate(put(5));
      }
      assertEquals(5, count(served.client), "close flushed");
    }
  }

  @Test
  void aFailedFlushNamesWhatItLost() throws IOException {
    try (ServedDatabase served = ServedDatabase.start(directory, CellarConfig.defaults())) {
      served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      BufferedMutator mutator = served.client.bufferedMutator("t");
      mutator.mutate(
          new Put("bad".getBytes()).addColumn("nope".getBytes(), "q".getBytes(), "v".getBytes()));
      IOException failure = assertThrows(IOException.class, mutator::close);
      assertTrue(
          failure
              .getMessage()
              .startsWith("1 buffered mutations of table t failed" + " (first row bad)"),
          failure.getMessage());
      assertThrows(IllegalStateException.class, () -> mutator.mutate(put(1)));
    }
  }
}
