package dev.cellar.cli.experiments;

import dev.cellar.cli.experiments.report.ExperimentReport;
import dev.cellar.cli.experiments.report.Machine;
import dev.cellar.cli.experiments.report.ReportWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The end of every experiment command: the smoke notice, the measurement, then one line naming the
 * files of its report, or one line saying why the measurement failed (exit code 1, no stack trace).
 * Writing the report's files may still throw, as any file the user named may.
 */
public final class ExperimentRun {

  /** What an experiment measures, into its report. */
  public interface Measurement {
    ExperimentReport run() throws IOException;
  }

  private ExperimentRun() {}

  /** Runs {@code measurement} for {@code command} and writes its report under {@code out}. */
  public static int report(
      String command, List<String> smokeReasons, Path out, PrintStream err, Measurement measurement)
      throws IOException {
    SmokeNotice.print(command, smokeReasons, err);
    ExperimentReport report;
    try {
      report = measurement.run();
    } catch (IOException | IllegalStateException | IllegalArgumentException e) {
      err.println(command + ": " + e.getMessage());
      return 1;
    }
    List<Path> files = ReportWriter.write(report, Machine.current(), out);
    err.println(command + ": wrote " + files + SmokeNotice.mark(smokeReasons));
    return 0;
  }
}
