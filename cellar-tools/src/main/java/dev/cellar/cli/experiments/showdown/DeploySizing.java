package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.report.SetupTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one deploy's JVM is given for an allotment, and how each figure was reached: the heap
 * ({@code -Xms} = {@code -Xmx}), the L1 and L2 in it or beside it, the direct memory limit, and
 * which of {@link Deploy}'s floors raised a figure above the seed's share. The figures a report
 * prints beside the allotment (a heap larger than the allotment, at small sizes) are explained from
 * here: the heap is the caches it holds plus what the JVM needs beside them. Immutable.
 */
public record DeploySizing(Deploy deploy, long allotment) {

  private static final double MIB = 1 << 20;

  public long heap() {
    return deploy.heapBytes(allotment);
  }

  public long l1() {
    return deploy.l1Bytes(allotment);
  }

  public long l2() {
    return deploy.l2Bytes(allotment);
  }

  public long direct() {
    return deploy.directBytes(allotment);
  }

  /** What the heap holds beside its caches (the L1, and a heap engine's L2). */
  public long besideCaches() {
    return heap() - deploy.onHeapCacheBytes(allotment);
  }

  /** True when the seed's share left less than the floor beside the caches. */
  public boolean heapRaised() {
    return heap() > deploy.heapShareBytes(allotment);
  }

  /** How the heap was sized, in words, with the figures. */
  public String heapHow() {
    String caches = "heap".equals(deploy.ioEngine()) ? "L1 and L2" : "L1";
    String beside = "heap".equals(deploy.ioEngine()) ? "them" : "it";
    if (heapRaised()) {
      return String.format(
          "the %s plus %s beside %s: the seed's share (%.1f%% of the"
              + " allotment, %s) would leave less than that",
          caches,
          Allotment.mib(besideCaches()),
          beside,
          deploy.heapSharePercent(),
          Allotment.mib(deploy.heapShareBytes(allotment)));
    }
    return String.format(
        "the seed's share, %.1f%% of the allotment: the %s plus %s beside %s",
        deploy.heapSharePercent(), caches, Allotment.mib(besideCaches()), beside);
  }

  /**
   * Every floor that raised a cache or the heap above the seed's share, in words; empty when none
   * did. The direct memory limit's floor is left out: the on-heap deploys meet it at any size.
   */
  public List<String> floors() {
    List<String> floors = new ArrayList<>();
    if (heapRaised()) {
      floors.add(
          deploy.title()
              + ": heap raised to "
              + Allotment.mib(heap())
              + " (its caches plus "
              + Allotment.mib(Deploy.MIN_HEAP)
              + ") from the seed's share of "
              + Allotment.mib(deploy.heapShareBytes(allotment)));
    }
    if (l1() > deploy.l1ShareBytes(allotment)) {
      floors.add(
          deploy.title()
              + ": L1 raised to "
              + Allotment.mib(l1())
              + " from the seed's share"
              + " of "
              + Allotment.mib(deploy.l1ShareBytes(allotment)));
    }
    if (l2() > deploy.l2ShareBytes(allotment)) {
      floors.add(
          deploy.title()
              + ": L2 raised to "
              + Allotment.mib(l2())
              + " (one bucket per size"
              + " class) from the seed's share of "
              + Allotment.mib(deploy.l2ShareBytes(allotment)));
    }
    return floors;
  }

  /** Every floor of every deploy in {@code deploys}, for a smoke run's reasons. */
  public static List<String> floors(List<Deploy> deploys, long allotment) {
    return deploys.stream().flatMap(d -> new DeploySizing(d, allotment).floors().stream()).toList();
  }

  /** The report's table of every deploy's sizes (MiB), and how each heap was sized. */
  public static SetupTable table(List<Deploy> deploys, Allotment allotment) {
    List<List<Object>> rows = new ArrayList<>();
    for (Deploy deploy : deploys) {
      DeploySizing s = new DeploySizing(deploy, allotment.bytes());
      rows.add(
          Arrays.asList(
              deploy.title(),
              mib(s.heap()),
              mib(s.l1()),
              s.l2() == 0 ? null : mib(s.l2()),
              deploy.ioEngine() == null ? "none" : deploy.ioEngine(),
              mib(s.besideCaches()),
              mib(s.direct()),
              mib(s.heap() + s.direct()),
              s.heapHow()));
    }
    return new SetupTable(
        "Memory of each deploy",
        "Allotted to each deploy: "
            + allotment.describe()
            + ". Each JVM is sized from the seed's"
            + " configuration table as shares of the allotment. Its heap (-Xms = -Xmx) holds the"
            + " L1 (and a heap engine's L2) and what the JVM needs beside them: where the seed's"
            + " share leaves less than "
            + Allotment.mib(Deploy.MIN_HEAP)
            + " beside the caches,"
            + " the heap is raised to the caches plus "
            + Allotment.mib(Deploy.MIN_HEAP)
            + ", so"
            + " at small allotments a heap is larger than the allotment. The direct memory limit"
            + " (-XX:MaxDirectMemorySize) is what the allotment leaves beside the heap, at least "
            + Allotment.mib(Deploy.MIN_DIRECT)
            + "; the L2 is at least "
            + Allotment.mib(Deploy.MIN_L2)
            + " (one bucket per size class).",
        List.of(
            "deploy",
            "heap (-Xmx), MiB",
            "L1, MiB",
            "L2, MiB",
            "L2 engine",
            "heap beside the caches, MiB",
            "direct memory limit, MiB",
            "heap + direct, MiB",
            "how the heap was sized"),
        rows);
  }

  private static double mib(long bytes) {
    return Math.round(bytes / MIB * 10) / 10.0;
  }
}
