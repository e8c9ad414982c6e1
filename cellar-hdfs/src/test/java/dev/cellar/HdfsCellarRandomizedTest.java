package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link CellarRandomizedTest} with the database on a MiniDFSCluster, with fewer steps: every put
 * waits for an hflush and every flush for hsyncs through the DataNode.
 */
class HdfsCellarRandomizedTest extends CellarRandomizedTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);
  private String location;

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
