package dev.cellar.client;

import dev.cellar.Cellar;
import dev.cellar.Database;
import dev.cellar.hdfs.MiniHdfs;
import java.io.IOException;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link TableContractTest} on an embedded database on a MiniDFSCluster: the same assertions as on
 * a local disk and through the client, each test on a database of its own.
 */
class HdfsTableContractTest extends TableContractTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  @Override
  Database open() throws IOException {
    return Cellar.open(hdfs.newDirectory("contract"), hdfs.config());
  }
}
