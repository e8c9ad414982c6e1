package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.TierHitRatios;

/**
 * One deploy at one database:RAM ratio: the last measured randomRead run.
 *
 * @param hitRatios each block cache tier's hit ratio during the run
 * @param loadAverage the machine's one-minute load average when the run ended
 */
record ShowdownCase(
    Deploy deploy,
    double ratio,
    long rows,
    double opsPerSecond,
    double p50Micros,
    double p99Micros,
    double p999Micros,
    long gcMillis,
    TierHitRatios hitRatios,
    double loadAverage) {}
