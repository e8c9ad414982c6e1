package dev.cellar.cli.experiments.showdown;

import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.ycsb.CellarYcsbDb;
import dev.cellar.cli.ycsb.YcsbCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * The off-heap seed's YCSB table and workloads, run by YCSB's own {@link CoreWorkload} (its key
 * naming and choice, field values and operation mix) over Cellar's YCSB binding ({@link
 * CellarYcsbDb}), with the experiment's runner timing each operation: table {@value #TABLE}, family
 * {@value #FAMILY}, records of YCSB's default 10 fields of 100 bytes (the seed's 1 KB rows), 64 KiB
 * blocks without encoding or compression and a row bloom filter, as PE's table. The workloads are
 * the files {@code cellar ycsb} ships: C (reads of whole records) and E with scans only (ranges of
 * 1 to 100 records), the seed's multi-get and range scan tests being as near as YCSB's client
 * comes. Stateless.
 */
public final class YcsbRecords {

  public static final String TABLE = "usertable";
  public static final String FAMILY = CellarYcsbDb.DEFAULT_FAMILY;

  /** About what one record takes in a block: ten cells of a 100-byte value and a key each. */
  public static final int RECORD_BYTES = 1600;

  private static final int LOAD_THREADS = 2;

  private YcsbRecords() {}

  /**
   * Workload {@code letter}'s properties from the shipped file, for {@code records} records; E runs
   * scans only.
   */
  static Properties properties(String letter, long records) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = YcsbCommand.class.getResourceAsStream("workload" + letter)) {
      if (in == null) {
        throw new IOException("no shipped YCSB workload " + letter);
      }
      properties.load(in);
    }
    properties.setProperty("recordcount", Long.toString(records));
    properties.setProperty("table", TABLE);
    if (letter.equals("e")) {
      properties.setProperty("scanproportion", "1");
      properties.setProperty("insertproportion", "0");
    }
    return properties;
  }

  /** YCSB's workload, initialised with {@code properties}, for every thread of a phase. */
  static CoreWorkload workload(Properties properties) throws IOException {
    Measurements.setProperties(properties);
    CoreWorkload workload = new CoreWorkload();
    try {
      workload.init(properties);
    } catch (WorkloadException e) {
      throw new IOException("YCSB's workload refused its properties: " + e.getMessage(), e);
    }
    return workload;
  }

  /**
   * Creates the table in {@code database} and inserts about {@code records} records with YCSB's
   * inserts (two threads, an equal share each), then flushes and major-compacts it into one file.
   * Returns the records inserted: the record count the workloads must be given, so that they ask
   * only for keys that exist.
   */
  public static long load(Database database, long records, PrintStream progress)
      throws IOException {
    database
        .admin()
        .createTable(
            new TableDescriptor(
                TABLE,
                List.of(
                    ColumnFamilyDescriptor.of(
                        FAMILY,
                        Map.of(
                            "BLOCKSIZE",
                            "65536",
                            "BLOOMFILTER",
                            "ROW",
                            "DATA_BLOCK_ENCODING",
                            "NONE",
                            "COMPRESSION",
                            "NONE")))));
    long perThread = Math.max(1, records / LOAD_THREADS);
    Properties properties = properties("a", perThread * LOAD_THREADS);
    CoreWorkload workload = workload(properties);
    LoadRunner.run(
        new LoadRunner.Plan("ycsb-load", LOAD_THREADS, perThread, 0, 0.01, 10),
        thread -> new YcsbOperations(workload, properties, database, thread, LOAD_THREADS, true),
        progress);
    database.admin().flush(TABLE);
    database.admin().majorCompact(TABLE);
    return perThread * LOAD_THREADS;
  }
}
