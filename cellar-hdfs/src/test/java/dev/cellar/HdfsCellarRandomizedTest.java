package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link CellarRandomizedTest} with the database on a MiniDFSCluster, with fewer steps: every put
 * waits for an hflush and every flush for hsyncs through the DataNode.
 */
class HdfsCellarRandomizedTest extends CellarRandomizedTest {

  private static MiniHdfs hdfs;
  private String location;

  @BeforeAll
  static void start() throws Exception {
    hdfs = MiniHdfs.start(1);
  }

  @AfterAll
  static void stop() throws Exception {
    hdfs.close();
  }

  @BeforeEach
  void newDirectory() {
    location = hdfs.newDirectory("randomized");
  }

  @Override
  String location() {
    return location;
  }

  @Override
  int steps() {
    return 400;
  }

  @Override
  CellarConfig storageSettings(CellarConfig config) {
    return config.withAll(hdfs.config().settings().asMap());
  }
}
