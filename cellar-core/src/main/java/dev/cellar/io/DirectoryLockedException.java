package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Path;

/** Thrown when a directory that one process at a time may write is held by another. */
public final class DirectoryLockedException extends IOException {

  private final Path directory;

  public DirectoryLockedException(Path directory, String why) {
    this(directory, directory.toString(), why);
  }

  /** For a directory a user knows by another name ({@code named}), such as an HDFS URI. */
  public DirectoryLockedException(Path directory, String named, String why) {
    super(named + " is in use: " + why);
    this.directory = directory;
  }

  /** The directory that could not be locked. */
  public Path directory() {
    return directory;
  }
}
