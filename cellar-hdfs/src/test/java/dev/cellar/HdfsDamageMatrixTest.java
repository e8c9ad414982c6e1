package dev.cellar;

import dev.cellar.hdfs.MiniHdfs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link DamageMatrixTest} with the databases on a MiniDFSCluster: every kind of file damaged every
 * way, the open serving every acknowledged cell or refusing unchanged, and repair bringing back
 * every readable file's cells, through HDFS.
 */
class HdfsDamageMatrixTest extends DamageMatrixTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);
  private String location;

  @BeforeEach
  void newDirectory() {
    location = hdfs.newDirectory("damage");
  }

  @Override
  String location() {
    return location;
  }

  @Override
  CellarConfig storageSettings(CellarConfig config) {
    return config.withAll(hdfs.config().settings().asMap());
  }
}
