package dev.cellar.cli.experiments.report;

import java.util.List;

/** Lists in words for report titles: "a", "a and b", "a, b and c". */
public final class Words {

  private Words() {}

  /** {@code items} joined with commas and a final "and"; empty for none. */
  public static String and(List<String> items) {
    if (items.size() < 2) {
      return items.isEmpty() ? "" : items.getFirst();
    }
    return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.getLast();
  }
}
