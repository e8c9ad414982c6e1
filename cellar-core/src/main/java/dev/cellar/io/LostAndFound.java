package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Where damaged or unaccounted-for files go instead of being deleted: {@code <base>/lost/<time>/},
 * each file under the path it had relative to {@code base}, and {@value #NOTES} listing every file
 * put there and why. Cellar never deletes what it cannot prove is garbage; what it must take out of
 * the way (a segment's unreadable tail, a file no manifest accounts for) it keeps here for the
 * operator, who may delete the directory once satisfied.
 *
 * <p><b>Durability.</b> A move is a rename, forced in both directories, so a crash leaves the file
 * in one place or the other; a copy is forced before it is noted. {@link #close} writes the notes
 * file and forces it. Not thread-safe: one recovery or repair uses one instance.
 */
public final class LostAndFound implements AutoCloseable {

  /** The directory under a database (or a log directory) that holds what was set aside. */
  public static final String DIRECTORY = "lost";

  /** The file in each {@code lost/<time>/} that says what is there and why. */
  public static final String NOTES = "NOTES.txt";

  /** The file in a repair's {@code lost/<time>/} listing every change it made. */
  public static final String REPORT = "REPORT.txt";

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC);
  private static final int COPY_CHUNK = 1 << 20;

  private final Storage storage;
  private final Path base;
  private final Path root;
  private final List<String> notes = new ArrayList<>();

  private LostAndFound(Storage storage, Path base, Path root) {
    this.storage = storage;
    this.base = base;
    this.root = root;
  }

  /**
   * A new {@code lost/<time>/} under {@code base}; nothing is created until a file is set aside.
   */
  public static LostAndFound under(Storage storage, Path base, Instant now) {
    return new LostAndFound(storage, base, base.resolve(DIRECTORY).resolve(STAMP.format(now)));
  }

  /** The directory files are set aside in. */
  public Path root() {
    return root;
  }

  /** Whether anything was set aside. */
  public boolean isEmpty() {
    return notes.isEmpty();
  }

  /** Where {@code file}, a path under the base, goes. */
  private Path target(Path file, String suffix) {
    Path relative = file.startsWith(base) ? base.relativize(file) : file.getFileName();
    return root.resolve(relative.toString() + suffix);
  }

  /** Moves {@code file} (a file or a directory under the base) here, noting {@code why}. */
  public Path move(Path file, String why) throws IOException {
    Path target = target(file, "");
    storage.createDirectories(target.getParent());
    storage.rename(file, target);
    storage.syncDirectory(target.getParent());
    storage.syncDirectory(file.getParent());
    note(file, target, why);
    return target;
  }

  /**
   * Copies the bytes of {@code file} from {@code offset} to its end here, as {@code
   * <name>.from-<offset>}, forced, noting {@code why}: for the part of a file a recovery cuts off.
   */
  public Path copyTail(Path file, long offset, String why) throws IOException {
    Path target = target(file, ".from-" + offset);
    storage.createDirectories(target.getParent());
    byte[] chunk = new byte[COPY_CHUNK];
    Buf buffer = Buf.wrap(chunk);
    try (ReadOnlyFile in = storage.openRead(file);
        AppendOnlyFile out = storage.create(target)) {
      long size = in.size();
      for (long position = offset; position < size; ) {
        int length = (int) Math.min(COPY_CHUNK, size - position);
        in.readFully(position, buffer, 0, length);
        out.append(chunk, 0, length);
        position += length;
      }
      out.sync();
    }
    storage.syncDirectory(target.getParent());
    note(file, target, why);
    return target;
  }

  private void note(Path from, Path to, String why) {
    notes.add(storage.describe(from) + " -> " + root.relativize(to) + ": " + why);
  }

  /** The lines written to {@value #NOTES}: one per file set aside. */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** Writes {@code lines} as {@value #REPORT}, forced: what a repair did, beside what it kept. */
  public void report(List<String> lines) throws IOException {
    write(REPORT, lines);
  }

  /** Writes {@value #NOTES} if anything was set aside, and forces it. */
  @Override
  public void close() throws IOException {
    if (!notes.isEmpty()) {
      write(NOTES, notes);
    }
  }

  private void write(String name, List<String> lines) throws IOException {
    storage.createDirectories(root);
    byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    Path file = root.resolve(name);
    storage.deleteIfExists(file);
    try (AppendOnlyFile out = storage.create(file)) {
      out.append(text, 0, text.length);
      out.sync();
    }
    storage.syncDirectory(root);
  }
}
