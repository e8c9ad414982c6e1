package dev.cellar.cli.experiments.showdown;

import java.util.ArrayList;
import java.util.List;

/**
 * One measured phase of a child JVM: a workload at a number of client threads, written {@code
 * workload:threads} in a request ({@code randomRead:5}) and used as the prefix of its results.
 */
public record Phase(ReadWorkload workload, int threads) {

  public String key() {
    return workload.command() + ":" + threads;
  }

  /** Phases written as {@code workload:threads}, separated by commas. */
  public static List<Phase> parseAll(String text) {
    List<Phase> phases = new ArrayList<>();
    for (String part : text.split(",")) {
      int colon = part.indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException("a phase is workload:threads, not " + part);
      }
      phases.add(
          new Phase(
              ReadWorkload.of(part.substring(0, colon)),
              Integer.parseInt(part.substring(colon + 1))));
    }
    return phases;
  }

  public static String join(List<Phase> phases) {
    return String.join(",", phases.stream().map(Phase::key).toList());
  }
}
