package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** {@link Storage} on the local file system through {@code java.nio.file}. Stateless. */
final class LocalStorage implements Storage {

  static final LocalStorage INSTANCE = new LocalStorage();

  private LocalStorage() {}

  @Override
  public ReadOnlyFile openRead(Path path) throws IOException {
    return LocalReadOnlyFile.openLocal(path);
  }

  @Override
  public ReadOnlyFile openReadImmutable(Path path) throws IOException {
    return LocalReadOnlyFile.openLocalMapped(path);
  }

  @Override
  public AppendOnlyFile create(Path path) throws IOException {
    return ChannelAppendOnlyFile.createNew(path);
  }

  @Override
  public boolean isFile(Path path) {
    return Files.isRegularFile(path);
  }

  @Override
  public boolean isDirectory(Path path) {
    return Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public long size(Path path) throws IOException {
    return Files.size(path);
  }

  @Override
  public byte[] readAllBytes(Path path) throws IOException {
    return Files.readAllBytes(path);
  }

  @Override
  public void createDirectories(Path directory) throws IOException {
    Files.createDirectories(directory);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public boolean deleteIfExists(Path path) throws IOException {
    return Files.deleteIfExists(path);
  }

  @Override
  public void truncate(Path path, long length) throws IOException {
    DurableFiles.truncate(path, length);
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
  public StorageLock lock(Path directory) throws IOException {
    return DirectoryLock.acquire(directory);
  }

  @Override
  public Optional<String> probeLock(Path directory) throws IOException {
    return DirectoryLock.probe(directory);
  }

  @Override
  public String toString() {
    return "local file system";
  }
}
