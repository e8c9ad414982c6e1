package dev.cellar.io;

import java.nio.file.Path;

/**
 * One thing found wrong in a file by an offline check: the file, the byte offset where it is (or
 * {@link #WHOLE_FILE} when it concerns the file as a whole: missing, unexpected, unreadable) and
 * what is wrong, said so that it stands on one line.
 */
public record FileProblem(Path file, long offset, String what) {

  /** The offset of a problem that is about the whole file rather than a place in it. */
  public static final long WHOLE_FILE = -1;

  /** A problem with the file as a whole. */
  public static FileProblem of(Path file, String what) {
    return new FileProblem(file, WHOLE_FILE, what);
  }

  @Override
  public String toString() {
    return line(file.toString());
  }

  /** The problem on one line, naming the file as {@code storage} names it to a user (a URI). */
  public String describe(Storage storage) {
    return line(storage.describe(file));
  }

  private String line(String name) {
    return offset == WHOLE_FILE ? name + ": " + what : name + " at offset " + offset + ": " + what;
  }
}
