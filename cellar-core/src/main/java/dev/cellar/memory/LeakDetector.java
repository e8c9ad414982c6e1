package dev.cellar.memory;

import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds pooled buffers that are never released.
 *
 * <p>The level ({@link LeakLevel}) is read once from the system property {@value
 * LeakLevel#PROPERTY}; the default is SIMPLE. A tracked buffer gets a {@link LeakRecord}, and its
 * {@link RefCnt} is registered with a cleaner: if the buffer becomes unreachable without its last
 * release, the leak is logged with where it was allocated and last touched, and the memory goes
 * back to its pool, so a leak costs a log line rather than a pool slot. At PARANOID every pooled
 * buffer is tracked, so {@link #outstandingSince} can list the ones still held, which is what the
 * test suite's leak check uses.
 *
 * <p>Thread-safe: the registry of open records is a concurrent map and ids come from an atomic
 * counter.
 */
public final class LeakDetector {

  /** At SIMPLE, one pooled allocation in this many is tracked. */
  public static final int SAMPLING_INTERVAL = 128;

  private static final Logger LOG = LoggerFactory.getLogger(LeakDetector.class);
  private static final LeakLevel LEVEL =
      LeakLevel.parse(System.getProperty(LeakLevel.PROPERTY, LeakLevel.SIMPLE.name()));
  private static final Cleaner CLEANER =
      Cleaner.create(runnable -> new Thread(runnable, "cellar-leak-cleaner"));
  private static final AtomicLong NEXT_ID = new AtomicLong();
  private static final AtomicLong GC_LEAKS = new AtomicLong();
  private static final ConcurrentHashMap<Long, LeakRecord> OPEN = new ConcurrentHashMap<>();

  private LeakDetector() {}

  /** The level in force for this JVM. */
  public static LeakLevel level() {
    return LEVEL;
  }

  /**
   * Starts tracking {@code referent} if the level (and, at SIMPLE, sampling) says so.
   *
   * @return the record to attach to the buffer's reference count, or {@code null} if untracked
   */
  static LeakRecord track(Object referent, String description, Recycler recycler, int token) {
    boolean paranoid = LEVEL == LeakLevel.PARANOID;
    if (!paranoid
        && (LEVEL == LeakLevel.DISABLED
            || ThreadLocalRandom.current().nextInt(SAMPLING_INTERVAL) != 0)) {
      return null;
    }
    LeakRecord record =
        new LeakRecord(NEXT_ID.incrementAndGet(), description, paranoid, recycler, token);
    OPEN.put(record.id(), record);
    record.attach(CLEANER.register(referent, record));
    return record;
  }

  /**
   * As {@link #track}, for a buffer its pool keeps reachable between uses (a reusable slot's,
   * revived): only at PARANOID, where {@link #outstandingSince} lists what is still held. Sampled
   * at SIMPLE, such a record could never be reported (the cleaner never sees the buffer become
   * unreachable) and cost a stack trace each time: a fifth of the heap a Get left when misses
   * reused slots.
   */
  static LeakRecord trackKept(Object referent, String description, Recycler recycler, int token) {
    return LEVEL == LeakLevel.PARANOID ? track(referent, description, recycler, token) : null;
  }

  static void forget(LeakRecord record) {
    OPEN.remove(record.id());
  }

  static void reportGarbageCollectedLeak(LeakRecord record) {
    forget(record);
    GC_LEAKS.incrementAndGet();
    LOG.error(
        "LEAK: a buffer was garbage collected without being released; its memory was "
            + "returned to the pool. {}",
        record.history());
  }

  /** The id of the most recent record; records created later have larger ids. */
  public static long lastRecordId() {
    return NEXT_ID.get();
  }

  /** How many leaked buffers were found by garbage collection since the JVM started. */
  public static long garbageCollectedLeaks() {
    return GC_LEAKS.get();
  }

  /**
   * Tracked buffers created after record {@code id} that are still unreleased, oldest first.
   *
   * @return one report per buffer: its description, last accesses and allocation site
   */
  public static List<Outstanding> outstandingSince(long id) {
    List<LeakRecord> records = new ArrayList<>();
    for (LeakRecord record : OPEN.values()) {
      if (record.id() > id && record.isOpen()) {
        records.add(record);
      }
    }
    records.sort(Comparator.comparingLong(LeakRecord::id));
    List<Outstanding> out = new ArrayList<>(records.size());
    for (LeakRecord record : records) {
      out.add(new Outstanding(record));
    }
    return out;
  }

  /** One unreleased tracked buffer. */
  public static final class Outstanding {
    private final LeakRecord record;

    private Outstanding(LeakRecord record) {
      this.record = record;
    }

    /** Where the buffer was allocated and last accessed. */
    public String history() {
      return record.history();
    }

    /** Stops tracking the buffer so that it is reported once; its memory is not recycled. */
    public void dismiss() {
      record.markReported();
    }

    @Override
    public String toString() {
      return history();
    }
  }
}
