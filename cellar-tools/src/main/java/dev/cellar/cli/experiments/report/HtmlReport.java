package dev.cellar.cli.experiments.report;

import dev.cellar.cli.pe.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * Renders an {@link ExperimentReport} as one self-contained HTML page: the template {@code
 * report.html} beside this class, with uPlot's script and style inlined from its WebJar on the
 * class path and the report's JSON embedded, so the file opens offline and from anywhere. The page
 * draws the charts and tables from that JSON in the browser; every text goes in through {@code
 * textContent}, so nothing in a report is read as markup.
 */
final class HtmlReport {

  private static final String WEBJAR = "/META-INF/resources/webjars/uplot/";
  private static final String WEBJAR_POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";

  private HtmlReport() {}

  static String render(ExperimentReport report, Machine machine) {
    String version = uplotVersion();
    String data = Json.write(report.toJson(machine)).replace("</", "<\\/");
    return resource(HtmlReport.class, "report.html")
        .replace("@TITLE@", escape(report.fullTitle()))
        .replace("@UPLOT_VERSION@", version)
        .replace(
            "@UPLOT_CSS@", resource(HtmlReport.class, WEBJAR + version + "/dist/uPlot.min.css"))
        .replace(
            "@UPLOT_JS@", resource(HtmlReport.class, WEBJAR + version + "/dist/uPlot.iife.min.js"))
        .replace("@DATA@", data);
  }

  private static String uplotVersion() {
    try (InputStream in = HtmlReport.class.getResourceAsStream(WEBJAR_POM)) {
      if (in == null) {
        throw new IllegalStateException(
            "uPlot's WebJar is not on the class path (" + WEBJAR_POM + " missing)");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + WEBJAR_POM, e);
    }
  }

  private static String resource(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + name, e);
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
