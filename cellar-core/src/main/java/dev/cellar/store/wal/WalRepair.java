package dev.cellar.store.wal;

import dev.cellar.io.RepairStep;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans what a repair does to a damaged log, reading only: each segment's damaged part (from its
 * first bad entry) is copied aside and the segment cut before it, a segment whose header cannot be
 * read is moved aside whole, and the entries before the damage stay in place for the open to
 * replay. When anything was cut, or the log ends below what the tables' files say was flushed
 * ({@link RecoveryBounds#highestFlushed}), an empty segment is added whose first id is above both,
 * so that the open continues the log's ids past every id the files claim and does not take the
 * shortened log for another database's. Ids that could only be read from the damaged parts are lost
 * to the tables not flushed past them; each step says which. Stateless.
 */
public final class WalRepair {

  private WalRepair() {}

  /** The steps that bring the log in {@code directory} back, in order; empty if it is intact. */
  public static List<RepairStep> plan(Storage storage, Path directory, RecoveryBounds bounds)
      throws IOException {
    List<RepairStep> steps = new ArrayList<>();
    List<WalRecovery.Inspected> inspected = WalRecovery.inspect(storage, directory);
    long reached = 0;
    boolean cut = false;
    for (int i = 0; i < inspected.size(); i++) {
      WalRecovery.Inspected one = inspected.get(i);
      reached = Math.max(reached, one.segment().highestSequenceId());
      if (one.damage() == null) {
        continue;
      }
      cut = true;
      boolean last = i == inspected.size() - 1;
      long lostFrom = one.segment().highestSequenceId() + 1;
      long lostTo =
          last
              ? Math.max(lostFrom, bounds.highestFlushed())
              : inspected.get(i + 1).segment().firstSequenceId() - 1;
      String consequence = consequence(bounds, lostFrom, lostTo, last);
      Path path = one.path();
      long end = one.segment().readableLength();
      if (end == 0) {
        steps.add(
            new RepairStep(
                "move "
                    + storage.describe(path)
                    + " aside: its header cannot be"
                    + " read ("
                    + one.damage().detail()
                    + "); "
                    + consequence,
                lost -> lost.move(path, "header unreadable: " + one.damage().detail())));
      } else {
        steps.add(
            new RepairStep(
                "cut "
                    + storage.describe(path)
                    + " at offset "
                    + end
                    + ", keeping the "
                    + (one.size() - end)
                    + " bytes from there aside: "
                    + one.damage().detail()
                    + "; "
                    + consequence,
                lost -> {
                  lost.copyTail(path, end, "unreadable from here: " + one.damage().detail());
                  storage.truncate(path, end);
                }));
      }
    }
    if (cut || bounds.highestFlushed() > reached) {
      long last = inspected.isEmpty() ? 0 : inspected.getLast().segment().firstSequenceId();
      long first = Math.max(Math.max(reached, bounds.highestFlushed()) + 1, last + 1);
      String why =
          cut
              ? "the log was cut"
              : "the log ends at id "
                  + reached
                  + " while the tables'"
                  + " files hold edits up to id "
                  + bounds.highestFlushed()
                  + " (segments are missing)";
      steps.add(
          new RepairStep(
              "start an empty log segment at id "
                  + first
                  + " in "
                  + storage.describe(directory)
                  + ": "
                  + why
                  + ", and new edits must take ids above"
                  + " every id the files hold",
              lost -> {
                SegmentWriter.create(
                        storage,
                        directory,
                        first,
                        System.currentTimeMillis(),
                        AppendOnlyFileOutput.on(storage))
                    .close();
              }));
    }
    return steps;
  }

  private static String consequence(RecoveryBounds bounds, long from, long to, boolean last) {
    List<String> needing = bounds.tablesNeeding(to);
    String ids = last ? "ids from " + from : "ids " + from + " to " + to;
    if (bounds.known() && needing.isEmpty()) {
      return ids
          + " could be in the cut part, and every table is flushed past them: no edit is"
          + " lost";
    }
    return ids
        + " could be in the cut part: edits of table(s) "
        + String.join(", ", needing)
        + " with those ids that no HFile holds are lost";
  }
}
