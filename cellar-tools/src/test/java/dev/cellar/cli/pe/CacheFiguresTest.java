package dev.cellar.cli.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.spi.EngineAccess;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheFiguresTest {

  private static final Map<String, String> L2 =
      Map.of("hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "32");

  private static CacheFigures figures(Path dir, Map<String, String> settings) throws Exception {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults().withAll(settings))) {
      return CacheFigures.of(EngineAccess.engine(cellar).blockCache());
    }
  }

  @Test
  void anInclusiveCacheHasItsTiersAsACombinedOneHas(@TempDir Path dir) throws Exception {
    Map<String, String> inclusive = new HashMap<>(L2);
    inclusive.put("cellar.blockcache.inclusive", "true");
    assertEquals(
        List.of("L1", "L2", "combined"),
        figures(dir.resolve("inclusive"), inclusive).tiers().stream()
            .map(CacheFigures.Tier::name)
            .toList());
    assertEquals(
        List.of("L1", "L2", "combined"),
        figures(dir.resolve("combined"), L2).tiers().stream()
            .map(CacheFigures.Tier::name)
            .toList());
  }
}
