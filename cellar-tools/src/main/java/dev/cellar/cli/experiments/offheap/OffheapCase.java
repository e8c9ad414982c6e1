package dev.cellar.cli.experiments.offheap;

import dev.cellar.cli.experiments.showdown.Deploy;
import dev.cellar.cli.experiments.showdown.Phase;
import dev.cellar.cli.experiments.showdown.PhaseFigures;

/** One deploy's last run of one phase (a workload at a thread count). */
record OffheapCase(Deploy deploy, Phase phase, PhaseFigures figures) {}
