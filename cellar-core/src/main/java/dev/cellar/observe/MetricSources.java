package dev.cellar.observe;

import java.util.ArrayList;
import java.util.List;

/** The sources a database publishes, in the order JMX and /prometheus list them. */
public final class MetricSources {

  private MetricSources() {}

  public static List<MetricSource> of(ObservedDatabase database) {
    List<MetricSource> sources =
        new ArrayList<>(
            List.of(
                new RegionServerSource(database),
                new WalSource(database.wal()),
                new BlockCacheDetailSource(database.cache()),
                new MemorySource(database.allocator(), database.chunkPool(), database.cache()),
                new JvmMetricsSource()));
    if (database.curve() != null) {
      sources.add(3, new MissRatioCurveSource(database.curve(), database.cache()));
    }
    return List.copyOf(sources);
  }
}
