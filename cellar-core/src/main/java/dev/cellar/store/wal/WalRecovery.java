package dev.cellar.store.wal;

import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a log directory to a clean state when the log opens, and learns from it the segments,
 * the tables in each and the next sequence id. Runs once, on the opening thread, before anything
 * is written.
 *
 * <p><b>Policy.</b> Every segment but the last was forced and closed before the next one was
 * created, so it must be intact: any damage in it, torn or flipped, fails the open with a {@link
 * CorruptWalException} naming file and offset, and nothing is skipped. The last segment was being
 * written when the process stopped; a crash may have torn its last batch anywhere, and the OS may
 * have persisted that batch's pages in any order. So its first bad entry (short, impossible
 * length, CRC mismatch) ends it: the segment is truncated there, the truncation forced, and the cut
 * logged with file, offset and reason. No entry beyond that point was acknowledged as durable,
 * unless the damage came from the disk rather than a crash, which this format cannot tell apart. A
 * last segment with a torn header (a file no longer than a header) or without entries is deleted.
 * The log then writes to a new segment, so the recovered ones are never appended to again.
 *
 * <p><b>An earlier writer.</b> Before anything is read, the storage makes sure the writer of the
 * last segment can append to it no more ({@link Storage#recoverWriter}: on HDFS the file's lease is
 * recovered, which also fixes its length); every other segment was closed by its writer.
 *
 * <p>The next sequence id is one above the highest id found, and at least the last segment's
 * first id (even if that segment was deleted), which keeps ids assigned without writing ({@link
 * Durability#SKIP_WAL}) before the last roll from being handed out again.
 */
final class WalRecovery {

  /** The recovered segments, oldest first, and the id the log continues from. */
  record Recovered(List<Segment> segments, long nextSequenceId) {}

  private record SegmentFile(Path path, long firstSequenceId) {}

  private static final Logger LOG = LoggerFactory.getLogger(WalRecovery.class);

  private WalRecovery() {}

  static Recovered recover(Storage storage, Path directory) throws IOException {
    List<SegmentFile> files = list(storage, directory);
    if (!files.isEmpty()) {
      storage.recoverWriter(files.getLast().path());
    }
    List<Segment> segments = new ArrayList<>();
    long highestId = 0;
    for (int i = 0; i < files.size(); i++) {
      SegmentFile file = files.get(i);
      if (i > 0 && file.firstSequenceId() <= highestId) {
        throw new CorruptWalException(file.path(), storage.describe(file.path()), 0,
            "first sequence id", "more than " + highestId + ", the last id of "
                + files.get(i - 1).path().getFileName(),
            file.firstSequenceId());
      }
      Segment segment = i < files.size() - 1
          ? scan(storage, file)
          : recoverLast(storage, directory, file);
      if (segment != null) {
        segments.add(segment);
      }
      highestId = segment == null ? file.firstSequenceId() - 1 : segment.highestSequenceId();
    }
    return new Recovered(segments, Math.max(1, highestId + 1));
  }

  private static List<SegmentFile> list(Storage storage, Path directory) throws IOException {
    List<SegmentFile> files = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      long firstSequenceId = WalLayout.parseFileName(path.getFileName().toString());
      if (firstSequenceId >= 0 && storage.isFile(path)) {
        files.add(new SegmentFile(path, firstSequenceId));
      }
    }
    files.sort(Comparator.comparingLong(SegmentFile::firstSequenceId));
    return files;
  }

  /** Reads a segment that must be intact. */
  private static Segment scan(Storage storage, SegmentFile file) throws IOException {
    try (SegmentReader reader =
        SegmentReader.open(storage, file.path(), file.firstSequenceId())) {
      Segment segment = new Segment(file.path(), file.firstSequenceId(), 0);
      for (WalEntry entry = reader.next(); entry != null; entry = reader.next()) {
        segment.recordEntry(entry.table(), entry.sequenceId());
      }
      segment.readableLength(reader.position());
      return segment;
    }
  }

  /** Reads the last segment up to its first bad entry and cuts it there; null if it was deleted. */
  private static Segment recoverLast(Storage storage, Path directory, SegmentFile file)
      throws IOException {
    Path path = file.path();
    long size = storage.size(path);
    Segment segment = new Segment(path, file.firstSequenceId(), 0);
    long end;
    try (SegmentReader reader = openUnlessHeaderTorn(storage, file, size)) {
      if (reader == null) {
        delete(storage, directory, path);
        return null;
      }
      try {
        for (WalEntry entry = reader.next(); entry != null; entry = reader.next()) {
          segment.recordEntry(entry.table(), entry.sequenceId());
        }
      } catch (CorruptWalException e) {
        LOG.warn("WAL segment {}: torn or corrupt tail at offset {}; truncating the {} bytes from"
            + " there: {}", storage.describe(path), reader.position(), size - reader.position(),
            e.getMessage());
      }
      end = reader.position();
    }
    if (!segment.hasEntries()) {
      delete(storage, directory, path);
      return null;
    }
    if (end < size) {
      try {
        storage.truncate(path, end);
      } catch (IOException e) {
        throw new IOException("WAL segment " + storage.describe(path)
            + ": cutting the torn tail at offset " + end
            + " failed: " + e, e);
      }
    }
    segment.readableLength(end);
    return segment;
  }

  /** Opens the last segment; null if its header is torn (the file is no longer than a header). */
  private static SegmentReader openUnlessHeaderTorn(Storage storage, SegmentFile file, long size)
      throws IOException {
    try {
      return SegmentReader.open(storage, file.path(), file.firstSequenceId());
    } catch (CorruptWalException e) {
      if (size > WalLayout.HEADER_SIZE) {
        throw e;
      }
      LOG.warn("WAL segment {}: torn header ({} bytes); deleting it: {}",
          storage.describe(file.path()), size, e.getMessage());
      return null;
    }
  }

  private static void delete(Storage storage, Path directory, Path path) throws IOException {
    try {
      storage.deleteIfExists(path);
      storage.syncDirectory(directory);
    } catch (IOException e) {
      throw new IOException("WAL segment " + path + ": deleting it failed: " + e, e);
    }
  }
}
