package dev.cellar.cli.experiments;

import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.GcFigures;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's figures read from its info server's {@code /jmx}, the HBase-named beans an operator
 * reads: the block cache's hits, misses, blocks and bytes (per tier when the server has an L2), the
 * bytes of its store files, and its GC time. An experiment that runs through the network takes the
 * figures before and after a run and subtracts, as it does with an embedded database's counters.
 * Stateless apart from its HTTP client; safe to share.
 */
public final class ServerJmx {

  private static final String SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";
  private static final String JVM = "Hadoop:service=HBase,name=JvmMetrics";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String infoAddress;
  private final boolean tiered;
  private final HttpClient http;

  /**
   * Reads the info server at {@code infoAddress} ({@code host:port}); {@code tiered} says the
   * server has an L2, so its cache is reported as L1, L2 and combined.
   */
  public ServerJmx(String infoAddress, boolean tiered) {
    this.infoAddress = infoAddress;
    this.tiered = tiered;
    this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  }

  /** The block cache's counters now, in the tiers an embedded database reports. */
  public CacheFigures cache() throws IOException {
    String bean = bean(SERVER);
    if (!tiered) {
      return new CacheFigures(List.of(tier(bean, "L1", "l1Cache")));
    }
    return new CacheFigures(
        List.of(
            tier(bean, "L1", "l1Cache"),
            tier(bean, "L2", "l2Cache"),
            tier(bean, "combined", "blockCache")));
  }

  /** The bytes of every store file the server holds now. */
  public long storeFileBytes() throws IOException {
    return (long) number(bean(SERVER), "storeFileSize");
  }

  /** The bytes the block cache holds now (both tiers). */
  public long blockCacheBytes() throws IOException {
    return (long) number(bean(SERVER), "blockCacheSize");
  }

  /** The server's collections and their time so far, as one collector named "server". */
  public GcFigures gc() throws IOException {
    String bean = bean(JVM);
    return new GcFigures(
        Map.of("server", (long) number(bean, "GcCount")),
        Map.of("server", (long) number(bean, "GcTimeMillis")));
  }

  private CacheFigures.Tier tier(String bean, String name, String prefix) throws IOException {
    return new CacheFigures.Tier(
        name,
        (long) number(bean, prefix + "HitCount"),
        (long) number(bean, prefix + "MissCount"),
        (long) number(bean, prefix + "LeftOutCount"),
        (long) number(bean, prefix + "Count"),
        (long) number(bean, prefix + "Size"));
  }

  private String bean(String query) throws IOException {
    URI uri =
        URI.create(
            "http://"
                + infoAddress
                + "/jmx?qry="
                + URLEncoder.encode(query, StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IOException(uri + " answered HTTP " + response.statusCode());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + uri, e);
    } catch (IOException e) {
      throw new IOException(
          "cannot read the server's figures from " + uri + ": " + e.getMessage(), e);
    }
  }

  private double number(String json, String attribute) throws IOException {
    Matcher m =
        Pattern.compile("\"" + Pattern.quote(attribute) + "\"\\s*:\\s*(-?[0-9][0-9.eE+-]*)")
            .matcher(json);
    if (!m.find()) {
      throw new IOException("the /jmx of " + infoAddress + " has no number " + attribute);
    }
    return Double.parseDouble(m.group(1));
  }
}
