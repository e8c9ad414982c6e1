package dev.cellar.cli.experiments.encoding;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.cli.experiments.ExperimentOptions;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the encoding experiment: the pairs to measure, the scale and the rows each table gets,
 * the random Gets per phase, the block size, the database configuration (embedded), and the server
 * to run through instead: its RPC address ({@code connect}) and its info server's ({@code
 * infoAddress}), both {@code host:port}, or both null to run embedded. Immutable.
 */
public record EncodingSettings(
    List<String> encodings,
    List<String> compressions,
    double scale,
    long rows,
    long gets,
    int blockSize,
    CellarConfig config,
    long seed,
    String connect,
    String infoAddress) {

  public EncodingSettings {
    encodings = List.copyOf(encodings);
    compressions = List.copyOf(compressions);
    if (encodings.isEmpty() || compressions.isEmpty()) {
      throw new IllegalArgumentException("give at least one encoding and one compression");
    }
    if (rows < 1 || rows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "rows must be in [1, " + Integer.MAX_VALUE + "], was " + rows);
    }
    for (String encoding : encodings) {
      for (String compression : compressions) {
        family(encoding, compression, blockSize);
      }
    }
    if (connect != null && !connect.matches("[^:\\s]+:[0-9]+")) {
      throw new IllegalArgumentException("--connect must be HOST:PORT, was " + connect);
    }
    if (gets < 1) {
      throw new IllegalArgumentException("gets must be at least 1, was " + gets);
    }
  }

  /** Why this is a smoke run (a scale below 1); empty if it is not. */
  List<String> smokeReasons() {
    return scale < 1 ? List.of(ExperimentOptions.reducedReason(scale)) : List.of();
  }

  /**
   * The column family of the pair's table.
   *
   * @throws IllegalArgumentException naming the attribute when the encoding or compression is not
   *     one Cellar knows
   */
  ColumnFamilyDescriptor family(String encoding, String compression) {
    return family(encoding, compression, blockSize);
  }

  private static ColumnFamilyDescriptor family(String encoding, String compression, int blockSize) {
    return ColumnFamilyDescriptor.of(
        new String(PhoenixRows.FAMILY, StandardCharsets.US_ASCII),
        Map.of(
            "DATA_BLOCK_ENCODING",
            encoding,
            "COMPRESSION",
            compression,
            "BLOCKSIZE",
            Integer.toString(blockSize)));
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("encodings", encodings);
    json.put("compressions", compressions);
    json.put("scale", scale);
    json.put("rows", rows);
    json.put("cellsPerRow", PhoenixRows.CELLS_PER_ROW);
    json.put("getsPerPhase", gets);
    json.put("BLOCKSIZE", blockSize);
    json.put("seed", seed);
    json.put("scanThreads", 1);
    json.put("getThreads", 1);
    json.put(
        "through",
        connect == null
            ? "embedded, a database per pair"
            : "the server at " + connect + ", figures from http://" + infoAddress + "/jmx");
    return json;
  }
}
