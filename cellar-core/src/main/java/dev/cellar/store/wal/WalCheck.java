package dev.cellar.store.wal;

import dev.cellar.io.FileProblem;
import dev.cellar.io.LostAndFound;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a log directory offline, changing nothing: reads every segment as recovery would (header,
 * then each entry's length, CRC32C, sequence id and cells; {@link SegmentReader}) and reports the
 * first bad entry of each with file and offset, saying what the next open does about it: the same
 * decision {@link WalRecovery} takes with the same {@link RecoveryBounds} (cut a crash's torn tail,
 * set aside damage whose ids every table has flushed, or refuse). Also reports segments whose first
 * sequence id is not above the previous segment's last, and files in the directory that name no
 * segment. Stateless.
 */
public final class WalCheck {

  /**
   * What a check found.
   *
   * @param segments the segment files read
   * @param entries the intact entries read, across segments
   * @param problems what is wrong, in the order found
   * @param refuses whether the next open refuses the log
   */
  public record Result(int segments, long entries, List<FileProblem> problems, boolean refuses) {}

  private WalCheck() {}

  /**
   * Checks the log in {@code directory} as an open with {@code bounds} would recover it; a missing
   * directory is an empty log.
   */
  public static Result check(Storage storage, Path directory, RecoveryBounds bounds)
      throws IOException {
    List<FileProblem> problems = new ArrayList<>();
    if (storage.isDirectory(directory)) {
      for (Path path : storage.list(directory)) {
        String name = path.getFileName().toString();
        if (WalLayout.parseFileName(name) < 0
            && !name.equals("LOCK")
            && !name.equals(WalLayout.OWNER_FILE)
            && !name.equals(LostAndFound.DIRECTORY)) {
          problems.add(FileProblem.of(path, "not a log segment"));
        }
      }
    }
    List<WalRecovery.Inspected> inspected;
    try {
      inspected = WalRecovery.inspect(storage, directory);
    } catch (CorruptWalException e) {
      problems.add(new FileProblem(e.file(), e.offset(), e.detail() + " (the next open refuses)"));
      return new Result(0, 0, problems, true);
    }
    long entries = 0;
    boolean refuses = false;
    for (WalRecovery.Decision decision : WalRecovery.decide(storage, inspected, bounds)) {
      WalRecovery.Inspected one = decision.inspected();
      entries += one.entries();
      FileProblem problem = problem(decision, directory);
      if (problem != null) {
        problems.add(problem);
      }
      refuses |= decision.action() == WalRecovery.Action.REFUSE;
    }
    return new Result(inspected.size(), entries, problems, refuses);
  }

  private static FileProblem problem(WalRecovery.Decision decision, Path directory) {
    WalRecovery.Inspected one = decision.inspected();
    long offset = one.segment().readableLength();
    String detail = one.damage() == null ? "" : one.damage().detail();
    return switch (decision.action()) {
      case KEEP -> null;
      case DELETE ->
          one.damage() == null
              ? null
              : new FileProblem(one.path(), offset, decision.why() + " (the next open deletes it)");
      case CUT ->
          new FileProblem(
              one.path(),
              offset,
              "torn or corrupt tail of the last segment: "
                  + detail
                  + " (the next open cuts it here)");
      case SET_ASIDE_AND_CUT ->
          new FileProblem(
              one.path(),
              offset,
              decision.why()
                  + " (the next open keeps the bytes from here in "
                  + directory.resolve(LostAndFound.DIRECTORY)
                  + "/ and cuts the segment here)");
      case MOVE_ASIDE ->
          new FileProblem(
              one.path(),
              offset,
              decision.why()
                  + " (the next open moves the segment to "
                  + directory.resolve(LostAndFound.DIRECTORY)
                  + "/)");
      case REFUSE ->
          new FileProblem(
              one.path(),
              offset,
              "corrupt: " + decision.refusal().detail() + " (the next open fails)");
    };
  }
}
