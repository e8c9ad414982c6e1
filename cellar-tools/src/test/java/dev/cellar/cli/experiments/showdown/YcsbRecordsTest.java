package dev.cellar.cli.experiments.showdown;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * The YCSB table holds every record its workloads may ask for: the count {@link YcsbRecords#load}
 * returns is the count it inserted, even when the asked-for count does not split evenly between its
 * threads, and every key YCSB names below it has its ten fields.
 */
class YcsbRecordsTest {

  /** YCSB's key naming, reachable from a subclass. */
  private static final class Keys extends CoreWorkload {
    String key(long number) {
      return buildKeyName(number);
    }
  }

  @Test
  void everyKeyBelowTheReturnedCountWasInserted(@TempDir Path dir) throws Exception {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      long loaded = YcsbRecords.load(cellar, 101, System.err);
      assertEquals(100, loaded, "two threads of 50");
      Properties properties = YcsbRecords.properties("c", loaded);
      Measurements.setProperties(properties);
      Keys keys = new Keys();
      keys.init(properties);
      Table table = cellar.table(YcsbRecords.TABLE);
      for (long number = 0; number < loaded; number++) {
        String key = keys.key(number);
        try (Result row = table.get(new Get(key.getBytes(StandardCharsets.UTF_8)))) {
          assertEquals(10, row.size(), "record " + number + " (" + key + ")");
        }
      }
    }
  }
}
