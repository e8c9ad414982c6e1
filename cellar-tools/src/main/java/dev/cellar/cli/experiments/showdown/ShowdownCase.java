package dev.cellar.cli.experiments.showdown;

import java.util.Map;

/**
 * One deploy at one database:RAM ratio: the last measured randomRead run.
 *
 * @param hitRatios each block cache tier's hit ratio during the run, by tier name
 */
record ShowdownCase(Deploy deploy, double ratio, long rows, double opsPerSecond,
    double p50Micros, double p99Micros, double p999Micros, long gcMillis,
    Map<String, Double> hitRatios) {}
