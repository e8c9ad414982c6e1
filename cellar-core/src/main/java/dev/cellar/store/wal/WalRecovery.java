package dev.cellar.store.wal;

import dev.cellar.io.LostAndFound;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a log directory to a clean state when the log opens, and learns from it the segments, the
 * tables in each and the next sequence id. Runs once, on the opening thread, in three steps: every
 * segment is read without changing anything ({@link #inspect}), what to do with each is decided
 * ({@link #decide}), and only if no segment makes the open refuse is anything written.
 *
 * <p><b>Policy.</b> The last segment was being written when the process stopped; a crash may have
 * torn its last batch anywhere, and the OS may have persisted that batch's pages in any order. So
 * its first bad entry (short, impossible length, CRC mismatch) ends it and it is cut there: no
 * entry beyond was acknowledged as durable, unless the damage came from the disk rather than a
 * crash, which this format cannot tell apart. A last segment with a torn header (a file no longer
 * than a header) or without entries is deleted. Every other segment was forced and closed before
 * the next was created, so damage in it is the disk's or a hand's, and so is a cut last segment
 * that ends below what the tables' files say was durable ({@link RecoveryBounds#highestFlushed}).
 * Such damage is harmless when every table is flushed past every id the damaged part could hold
 * (its edits are all in HFiles): the damaged part is set aside in {@code lost/<time>/} of the log
 * directory ({@link LostAndFound}), the segment cut before it, and the open goes on with a warning.
 * Otherwise the open refuses, naming the segment, the offset, the ids and the tables that may lose
 * acknowledged edits, and changes nothing. The log then writes to a new segment, so the recovered
 * ones are never appended to again.
 *
 * <p><b>An earlier writer.</b> Before anything is read, the storage makes sure the writer of the
 * last segment can append to it no more ({@link Storage#recoverWriter}: on HDFS the file's lease is
 * recovered, which also fixes its length); every other segment was closed by its writer.
 *
 * <p>The next sequence id is one above the highest id found, at least the last segment's first id
 * (even if that segment was deleted), which keeps ids assigned without writing ({@link
 * Durability#SKIP_WAL}) before the last roll from being handed out again, and, when damage was set
 * aside, above every id the tables' files say was flushed. A log that ends below what the tables'
 * files say was flushed without any damage is no longer this database's whole log (its segments
 * were lost, or it is another's): the open refuses before writing.
 */
final class WalRecovery {

  /** The recovered segments, oldest first, and the id the log continues from. */
  record Recovered(List<Segment> segments, long nextSequenceId) {}

  /**
   * One segment file as read: its entries up to its first damage ({@code segment}, whose readable
   * length is where the damage starts), and that damage.
   *
   * @param damage the first bad header or entry, or null
   * @param size the file's length
   * @param entries the intact entries before the damage
   */
  record Inspected(Segment segment, long size, CorruptWalException damage, long entries) {

    Path path() {
      return segment.path();
    }
  }

  /** What recovery does to one segment. */
  enum Action {
    /** Intact: kept as it is. */
    KEEP,
    /** A crash's torn tail: cut. */
    CUT,
    /** Damage whose ids are all flushed: the damaged part copied to lost/, then cut. */
    SET_ASIDE_AND_CUT,
    /** An unreadable header whose ids are all flushed: the whole file moved to lost/. */
    MOVE_ASIDE,
    /** A last segment with a torn header or no entries: deleted. */
    DELETE,
    /** Damage that may lose acknowledged edits: the open refuses. */
    REFUSE
  }

  /**
   * The decision for one segment.
   *
   * @param why what the damage means, for the log, the notes and a refusal; null when intact
   * @param refusal the exception a refusing open throws, or null
   */
  record Decision(Inspected inspected, Action action, String why, CorruptWalException refusal) {}

  private static final Logger LOG = LoggerFactory.getLogger(WalRecovery.class);

  private WalRecovery() {}

  static Recovered recover(Storage storage, Path directory, RecoveryBounds bounds)
      throws IOException {
    List<Path> files = list(storage, directory);
    if (!files.isEmpty()) {
      storage.recoverWriter(files.getLast());
    }
    List<Decision> decisions = decide(storage, inspect(storage, directory), bounds);
    boolean setAside = false;
    long reached = 0;
    for (Decision decision : decisions) {
      if (decision.refusal() != null) {
        throw decision.refusal();
      }
      setAside |=
          decision.action() == Action.SET_ASIDE_AND_CUT || decision.action() == Action.MOVE_ASIDE;
      reached = Math.max(reached, decision.inspected().segment().highestSequenceId());
    }
    if (!setAside && bounds.highestFlushed() > reached) {
      throw new IOException(
          "the tables' files hold edits up to log id "
              + bounds.highestFlushed()
              + ", but the log in "
              + storage.describe(directory)
              + " reached only id "
              + reached
              + ": the log lost edits it had acknowledged (on HDFS,"
              + " a power loss of every DataNode with hbase.wal.hsync=false) or is not this"
              + " database's log (one opened with another hbase.wal.dir); nothing was changed");
    }
    List<Segment> segments = new ArrayList<>();
    long highestId = 0;
    try (LostAndFound lost = LostAndFound.under(storage, directory, Instant.now())) {
      for (Decision decision : decisions) {
        Segment segment = apply(storage, directory, decision, lost);
        highestId =
            segment == null
                ? Math.max(highestId, decision.inspected().segment().firstSequenceId() - 1)
                : segment.highestSequenceId();
        if (segment != null) {
          segments.add(segment);
        }
      }
    }
    long floor = setAside ? bounds.highestFlushed() : 0;
    return new Recovered(segments, Math.max(1, Math.max(highestId, floor) + 1));
  }

  /**
   * Reads every segment of {@code directory} up to its first damage, changing nothing.
   *
   * @throws CorruptWalException if a segment's first id is not above the last id before it
   */
  static List<Inspected> inspect(Storage storage, Path directory) throws IOException {
    List<Inspected> inspected = new ArrayList<>();
    long highestId = 0;
    for (Path path : list(storage, directory)) {
      long first = WalLayout.parseFileName(path.getFileName().toString());
      if (!inspected.isEmpty() && first <= highestId) {
        throw new CorruptWalException(
            path,
            storage.describe(path),
            0,
            "first sequence id",
            "more than "
                + highestId
                + ", the last id of "
                + inspected.getLast().path().getFileName(),
            first);
      }
      Inspected one = read(storage, path, first);
      inspected.add(one);
      highestId = one.segment().highestSequenceId();
    }
    return inspected;
  }

  private static List<Path> list(Storage storage, Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    if (!storage.isDirectory(directory)) {
      return files;
    }
    for (Path path : storage.list(directory)) {
      if (WalLayout.parseFileName(path.getFileName().toString()) >= 0 && storage.isFile(path)) {
        files.add(path);
      }
    }
    files.sort(
        Comparator.comparingLong(path -> WalLayout.parseFileName(path.getFileName().toString())));
    return files;
  }

  private static Inspected read(Storage storage, Path path, long first) throws IOException {
    long size = storage.size(path);
    Segment segment = new Segment(path, first, 0);
    SegmentReader reader;
    try {
      reader = SegmentReader.open(storage, path, first);
    } catch (CorruptWalException e) {
      return new Inspected(segment, size, e, 0);
    }
    try (reader) {
      CorruptWalException damage = null;
      long entries = 0;
      try {
        for (WalEntry entry = reader.next(); entry != null; entry = reader.next()) {
          segment.recordEntry(entry.table(), entry.sequenceId());
          entries++;
        }
      } catch (CorruptWalException e) {
        damage = e;
      }
      segment.readableLength(reader.position());
      return new Inspected(segment, size, damage, entries);
    }
  }

  /** Decides what to do with each segment, in order; see the class comment. */
  static List<Decision> decide(Storage storage, List<Inspected> inspected, RecoveryBounds bounds) {
    List<Decision> decisions = new ArrayList<>();
    for (int i = 0; i < inspected.size(); i++) {
      Inspected one = inspected.get(i);
      boolean last = i == inspected.size() - 1;
      long lostTo =
          last ? bounds.highestFlushed() : inspected.get(i + 1).segment().firstSequenceId() - 1;
      decisions.add(
          last ? decideLast(storage, one, bounds) : decideClosed(storage, one, lostTo, bounds));
    }
    return decisions;
  }

  private static Decision decideClosed(
      Storage storage, Inspected one, long lostTo, RecoveryBounds bounds) {
    if (one.damage() == null) {
      return new Decision(one, Action.KEEP, null, null);
    }
    boolean header = one.segment().readableLength() == 0;
    return harmfulOrAside(
        storage,
        one,
        lostTo,
        bounds,
        header ? Action.MOVE_ASIDE : Action.SET_ASIDE_AND_CUT,
        "a closed segment, damaged by the disk or by hand");
  }

  private static Decision decideLast(Storage storage, Inspected one, RecoveryBounds bounds) {
    long goodHighest = one.segment().highestSequenceId();
    boolean headerUnreadable = one.damage() != null && one.segment().readableLength() == 0;
    if (headerUnreadable && one.size() > WalLayout.HEADER_SIZE) {
      return harmfulOrAside(
          storage,
          one,
          Long.MAX_VALUE,
          bounds,
          Action.MOVE_ASIDE,
          "the last segment's header is unreadable, so how many ids it held is unknown");
    }
    if (bounds.highestFlushed() > goodHighest
        && (one.damage() != null || one.segment().readableLength() < one.size())) {
      return harmfulOrAside(
          storage,
          one,
          bounds.highestFlushed(),
          bounds,
          one.segment().hasEntries() ? Action.SET_ASIDE_AND_CUT : Action.MOVE_ASIDE,
          "the last segment ends below id "
              + bounds.highestFlushed()
              + ", which the tables' files say was durable");
    }
    if (headerUnreadable || !one.segment().hasEntries()) {
      return new Decision(
          one,
          Action.DELETE,
          headerUnreadable ? "torn header (" + one.size() + " bytes)" : "no entries",
          null);
    }
    if (one.damage() != null) {
      return new Decision(one, Action.CUT, "torn or corrupt tail: " + one.damage().detail(), null);
    }
    return new Decision(one, Action.KEEP, null, null);
  }

  /**
   * Sets the damaged part of {@code one} aside with {@code action} if every table is flushed past
   * {@code lostTo}; else refuses, naming the tables.
   */
  private static Decision harmfulOrAside(
      Storage storage,
      Inspected one,
      long lostTo,
      RecoveryBounds bounds,
      Action action,
      String what) {
    long lostFrom = one.segment().highestSequenceId() + 1;
    CorruptWalException damage =
        one.damage() != null
            ? one.damage()
            : new CorruptWalException(
                one.path(),
                storage.describe(one.path()),
                one.segment().readableLength(),
                "end of the segment",
                "entries up to id " + lostTo,
                "the end of the file");
    if (bounds.harmless(lostTo)) {
      return new Decision(
          one,
          action,
          what
              + ": "
              + damage.detail()
              + "; every table is flushed"
              + " past the ids "
              + lostFrom
              + " to "
              + lostTo
              + " it could hold",
          null);
    }
    String tables =
        bounds.known()
            ? "table(s) " + String.join(", ", bounds.tablesNeeding(lostTo)) + " are"
            : "the tables may be";
    return new Decision(
        one,
        Action.REFUSE,
        what,
        damage.withConsequence(
            storage.describe(one.path()),
            "log ids "
                + lostFrom
                + " to "
                + lostTo
                + " after it"
                + " cannot be read, and "
                + tables
                + " not flushed past id "
                + lostTo
                + ", so"
                + " acknowledged edits of theirs may be lost ("
                + what
                + "); nothing was changed,"
                + " and 'cellar repair' keeps what precedes the damage, sets the rest aside and"
                + " opens without it"));
  }

  /** Carries out one decision; returns the segment the log keeps, or null. */
  private static Segment apply(
      Storage storage, Path directory, Decision decision, LostAndFound lost) throws IOException {
    Inspected one = decision.inspected();
    Path path = one.path();
    long end = one.segment().readableLength();
    switch (decision.action()) {
      case KEEP -> {
        return one.segment();
      }
      case CUT -> {
        LOG.warn(
            "WAL segment {}: {}; cutting the {} bytes from offset {}",
            storage.describe(path),
            decision.why(),
            one.size() - end,
            end);
        truncate(storage, path, end);
        return one.segment();
      }
      case SET_ASIDE_AND_CUT -> {
        Path aside = lost.copyTail(path, end, decision.why());
        LOG.warn(
            "WAL segment {}: {}; its bytes from offset {} are kept in {} and the segment is"
                + " cut there",
            storage.describe(path),
            decision.why(),
            end,
            storage.describe(aside));
        truncate(storage, path, end);
        return one.segment();
      }
      case MOVE_ASIDE -> {
        Path aside = lost.move(path, decision.why());
        LOG.warn(
            "WAL segment {}: {}; moved to {}",
            storage.describe(path),
            decision.why(),
            storage.describe(aside));
        return null;
      }
      case DELETE -> {
        LOG.warn("WAL segment {}: {}; deleting it", storage.describe(path), decision.why());
        delete(storage, directory, path);
        return null;
      }
      default -> throw new IllegalStateException("a refused segment is never applied: " + path);
    }
  }

  private static void truncate(Storage storage, Path path, long end) throws IOException {
    try {
      storage.truncate(path, end);
    } catch (IOException e) {
      throw new IOException(
          "WAL segment "
              + storage.describe(path)
              + ": cutting the damaged tail at offset "
              + end
              + " failed: "
              + e,
          e);
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
