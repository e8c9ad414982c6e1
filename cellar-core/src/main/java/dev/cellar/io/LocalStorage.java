package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/** {@link Storage} on the local file system through {@code java.nio.file}. Stateless. */
final class LocalStorage implements Storage {

  static final LocalStorage INSTANCE = new LocalStorage();

  private LocalStorage() {}

  @Override
  public AppendOnlyFile create(Path path) throws IOException {
    return AppendOnlyFile.create(path);
  }

  @Override
  public void createDirectories(Path directory) throws IOException {
    Files.createDirectories(directory);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public boolean deleteIfExists(Path path) throws IOException {
    return Files.deleteIfExists(path);
  }

  @Override
  public List<Path> list(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.sorted().toList();
    }
  }

  @Override
  public void syncDirectory(Path directory) throws IOException {
    DurableFiles.syncDirectory(directory);
  }

  @Override
  public DirectoryLock lock(Path directory) throws IOException {
    return DirectoryLock.acquire(directory);
  }

  @Override
  public String toString() {
    return "local file system";
  }
}
