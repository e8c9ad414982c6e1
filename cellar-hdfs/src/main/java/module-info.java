/**
 * The storage seam on Hadoop's {@code FileSystem}: the core's {@code StorageProvider} service for
 * {@code hdfs://} locations. Exports nothing; the core finds the provider through the module
 * system's services.
 *
 * <p>Hadoop's shaded client API is an automatic module at best: its jar names no module, so it is
 * required by the name derived from its file name ({@code hadoop.client.api}). That name holds as
 * long as the jar keeps its Maven file name; the shaded client jars split no package with each
 * other, which is what lets them on a module path at all (Hadoop's unshaded jars, which HBase's
 * jars pull in, split many, and keep the modules that need those on the class path).
 */
module dev.cellar.hdfs {
  requires dev.cellar.core;
  requires hadoop.client.api;
  requires org.slf4j;

  provides dev.cellar.io.StorageProvider with
      dev.cellar.hdfs.HdfsStorageProvider;
}
