package dev.cellar.cli.experiments.showdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.experiments.report.Chart;
import dev.cellar.cli.experiments.report.ExperimentReport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The showdown's report says what ran: its title, charts, memory table and smoke mark. */
class ShowdownReportTest {

  private static ShowdownSettings settings(String memory, double scale) {
    return new ShowdownSettings(
        Allotment.of(memory, scale, ShowdownSettings.MIN_MEMORY, "x"),
        List.of(0.5, 1.5),
        List.of(Deploy.LRU, Deploy.BUCKET_OFFHEAP),
        5,
        0.01,
        1000,
        1,
        Path.of("/dev/shm"),
        1,
        null);
  }

  private static ShowdownCase result(Deploy deploy, double ratio) {
    return new ShowdownCase(
        deploy,
        ratio,
        100,
        1000,
        1,
        2,
        3,
        0,
        new TierHitRatios(1.0, deploy == Deploy.LRU ? null : 0.5, 0.75),
        1.5);
  }

  @Test
  void theTitleChartsAndSizesAreThoseOfTheDeploysAndRatiosThatRan() {
    ShowdownSettings settings = settings("1280m", 0.05);
    ExperimentReport report =
        ShowdownReport.of(
            settings,
            List.of(
                result(Deploy.LRU, 0.5),
                result(Deploy.BUCKET_OFFHEAP, 0.5),
                result(Deploy.LRU, 1.5),
                result(Deploy.BUCKET_OFFHEAP, 1.5)));
    assertEquals(
        "Smoke run: BlockCache showdown of LruBlockCache and BucketCache offheap at"
            + " database:RAM ratios 0.5 and 1.5, 64 MiB allotted to each deploy",
        report.fullTitle());
    for (Chart chart : report.charts()) {
      assertEquals(List.of("LruBlockCache", "BucketCache offheap"), chart.categories());
      assertEquals(
          List.of("db:RAM 0.5", "db:RAM 1.5"),
          chart.series().stream().map(Chart.Series::name).toList());
    }
    assertEquals(2, report.setup().getFirst().rows().size(), "a memory row per deploy");
    assertTrue(
        report.smokeReasons().stream()
            .anyMatch(r -> r.startsWith("LruBlockCache: heap" + " raised to 165.6 MiB")),
        report.smokeReasons().toString());
    assertFalse(
        report.notes().stream().anyMatch(n -> n.contains("SlabCache-like")),
        "no note on a deploy that did not run");
    int l2 = report.columns().indexOf("hitRatioL2");
    assertEquals(null, report.rows().getFirst().get(l2), "the LRU has no L2");
    assertEquals(0.5, report.rows().get(1).get(l2));
  }

  @Test
  void aFullRunIsNotMarked() {
    ExperimentReport report = ShowdownReport.of(settings("1280m", 1), List.of());
    assertEquals(
        "BlockCache showdown of LruBlockCache and BucketCache offheap at database:RAM"
            + " ratios 0.5 and 1.5, 1,280 MiB allotted to each deploy",
        report.fullTitle());
    assertFalse(report.smokeRun(), report.smokeReasons().toString());
  }
}
