package dev.cellar.store.wal;

import dev.cellar.io.FileProblem;
import java.io.IOException;
import dev.cellar.io.Storage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a log directory offline, changing nothing: reads every segment as recovery would (header,
 * then each entry's length, CRC32C, sequence id and cells; {@link SegmentReader}) and reports the
 * first bad entry of each with file and offset. Damage in the last segment is what a crash leaves
 * and recovery cuts it there, so it is reported as a torn tail; damage in any other segment fails
 * recovery and is reported as corruption. Also reports segments whose first sequence id is not
 * above the previous segment's last, and files in the directory that name no segment. Stateless.
 */
public final class WalCheck {

  /**
   * What a check found.
   *
   * @param segments the segment files read
   * @param entries the intact entries read, across segments
   * @param problems what is wrong, in the order found
   */
  public record Result(int segments, long entries, List<FileProblem> problems) {}

  private WalCheck() {}

  /** Checks the log in {@code directory}; a missing directory is an empty log. */
  public static Result check(Storage storage, Path directory) throws IOException {
    List<FileProblem> problems = new ArrayList<>();
    List<Path> segments = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      String name = path.getFileName().toString();
      if (WalLayout.parseFileName(name) >= 0 && storage.isFile(path)) {
        segments.add(path);
      } else if (!name.equals("LOCK") && !name.equals(WalLayout.OWNER_FILE)) {
        problems.add(FileProblem.of(path, "not a log segment"));
      }
    }
    long entries = 0;
    long highestId = 0;
    for (int i = 0; i < segments.size(); i++) {
      Path path = segments.get(i);
      long first = WalLayout.parseFileName(path.getFileName().toString());
      boolean last = i == segments.size() - 1;
      if (i > 0 && first <= highestId) {
        problems.add(new FileProblem(path, 0, "first sequence id " + first + " is not above "
            + highestId + ", the last id before it"));
      }
      highestId = Math.max(highestId, first - 1);
      try (SegmentReader reader = SegmentReader.open(storage, path, first)) {
        try {
          for (WalEntry entry = reader.next(); entry != null; entry = reader.next()) {
            entries++;
            highestId = entry.sequenceId();
          }
        } catch (CorruptWalException e) {
          problems.add(damage(path, e, last));
        }
      } catch (CorruptWalException e) {
        problems.add(damage(path, e, last));
      }
    }
    return new Result(segments.size(), entries, problems);
  }

  private static FileProblem damage(Path path, CorruptWalException e, boolean last) {
    String what = e.detail();
    return new FileProblem(path, e.offset(), last
        ? "torn or corrupt tail of the last segment: " + what + " (the next open cuts it here)"
        : "corrupt: " + what + " (the next open fails)");
  }
}
