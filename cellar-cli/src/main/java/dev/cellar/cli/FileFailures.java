package dev.cellar.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * One line for a file the system refused: the file and why. Java's file exceptions carry the
 * system's reason ("Not a directory", "Read-only file system") except for the kinds the exception
 * type itself names, whose message is the bare path; those are named here.
 */
public final class FileFailures {

  private FileFailures() {}

  /** {@code FILE: reason} for a file system failure, else the exception's message. */
  public static String describe(IOException e) {
    return e instanceof FileSystemException fileSystem && fileSystem.getFile() != null
        ? fileSystem.getFile() + ": " + reason(fileSystem)
        : e.getMessage();
  }

  /** Why the system refused the file, without its name. */
  public static String reason(FileSystemException e) {
    if (e.getReason() != null) {
      return e.getReason();
    }
    return switch (e) {
      case AccessDeniedException denied -> "permission denied";
      case NoSuchFileException missing -> "no such file or directory";
      case NotDirectoryException notDirectory -> "not a directory";
      case FileAlreadyExistsException exists -> "already exists";
      default -> e.getClass().getSimpleName();
    };
  }
}
