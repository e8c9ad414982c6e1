package dev.cellar.cli.experiments.showdown;

import dev.cellar.Database;
import dev.cellar.cli.pe.Worker;
import dev.cellar.cli.ycsb.CellarYcsbDb;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * One client thread of a YCSB phase: YCSB's {@link CoreWorkload} (shared by the phase's threads, as
 * YCSB's client shares it) choosing and issuing each operation, inserts when loading, its
 * workload's mix otherwise, through Cellar's binding over the deploy's database. An operation
 * counts the records it read; one that does not succeed fails the run, since every record it can
 * ask for was loaded.
 */
final class YcsbOperations implements Worker {

  private final CoreWorkload workload;
  private final Object threadState;
  private final CheckedDb db;
  private final boolean insert;

  YcsbOperations(
      CoreWorkload workload,
      Properties properties,
      Database database,
      int thread,
      int threads,
      boolean insert)
      throws IOException {
    this.workload = workload;
    this.insert = insert;
    CellarYcsbDb binding = new CellarYcsbDb(database);
    binding.setProperties(properties);
    try {
      binding.init();
      this.threadState = workload.initThread(properties, thread, threads);
    } catch (DBException | WorkloadException e) {
      throw new IOException("YCSB's thread " + thread + " could not start: " + e.getMessage(), e);
    }
    this.db = new CheckedDb(binding);
  }

  @Override
  public long execute(long iteration) throws IOException {
    db.records = 0;
    if (insert) {
      workload.doInsert(db, threadState);
    } else {
      workload.doTransaction(db, threadState);
    }
    if (db.failed != null) {
      String failed = db.failed;
      db.failed = null;
      throw new IOException("a YCSB " + failed);
    }
    return db.records;
  }

  @Override
  public void close() {}

  /** Passes each call to the binding, counting the records read and noting a failure. */
  private static final class CheckedDb extends DB {

    private final DB binding;
    long records;
    String failed;

    CheckedDb(DB binding) {
      this.binding = binding;
    }

    private Status check(String operation, String key, Status status) {
      if (!status.isOk()) {
        failed = operation + " of " + key + " ended " + status.getName();
      }
      return status;
    }

    @Override
    public Status read(
        String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      Status status = check("read", key, binding.read(table, key, fields, result));
      records += status.isOk() ? 1 : 0;
      return status;
    }

    @Override
    public Status scan(
        String table,
        String startKey,
        int count,
        Set<String> fields,
        Vector<HashMap<String, ByteIterator>> result) {
      Status status = check("scan", startKey, binding.scan(table, startKey, count, fields, result));
      records += result.size();
      return status;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      return check("update", key, binding.update(table, key, values));
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      return check("insert", key, binding.insert(table, key, values));
    }

    @Override
    public Status delete(String table, String key) {
      return check("delete", key, binding.delete(table, key));
    }
  }
}
