package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.TierHitRatios;

/**
 * One deploy at one database:RAM ratio: the last measured randomRead run.
 *
 * @param hitRatios each block cache tier's hit ratio during the run
 */
record ShowdownCase(Deploy deploy, double ratio, long rows, double opsPerSecond,
    double p50Micros, double p99Micros, double p999Micros, long gcMillis,
    TierHitRatios hitRatios) {}
