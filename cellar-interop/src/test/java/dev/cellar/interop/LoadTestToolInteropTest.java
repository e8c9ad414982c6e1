package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.LoadTestTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's own {@code LoadTestTool} ({@code hbase ltt}) against {@code cellar serve}: it learns the
 * live servers from the cluster status, creates its table pre-split by them, and runs concurrent
 * writers, updaters and readers that verify every value they read; it must end with no failure. CI
 * runs 2,000 keys; {@code -Dcellar.ltt.keys=200000} (through {@code -Dcellar.test.extraJvmArgs})
 * runs the 200,000 of HBase's documented load.
 */
class LoadTestToolInteropTest {

  @TempDir Path dir;

  @Test
  void hbasesLoadTestToolRunsCleanAgainstTheServer() throws Exception {
    try (ServedCellar served = ServedCellar.start(dir)) {
      Configuration conf = ServedCellar.clientConfiguration(served.server);
      LoadTestTool tool = new LoadTestTool();
      tool.setConf(conf);
      int exit =
          tool.run(
              new String[] {
                "-tn", "ltt",
                "-write", "3:1024:2",
                "-update", "20:2",
                "-read", "100:2",
                "-num_keys", Integer.toString(Integer.getInteger("cellar.ltt.keys", 2000)),
                "-num_regions_per_server", "4"
              });
      assertEquals(0, exit, "LoadTestTool's exit code");
      try (Admin admin = served.connection.getAdmin()) {
        List<RegionInfo> regions = admin.getRegions(TableName.valueOf("ltt"));
        assertEquals(4, regions.size(), "pre-split by the one live server, 4 regions each");
      }
    }
  }
}
