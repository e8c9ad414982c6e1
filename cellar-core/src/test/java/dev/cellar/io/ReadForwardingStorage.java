package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The base of the test storages that wrap another: reads, locks and lock probes go to the wrapped
 * storage as they are, and every change to files (creates, renames, deletes, truncates, directory
 * syncs) is the subclass's to intercept.
 */
abstract class ReadForwardingStorage implements Storage {

  /** The storage every call ends up in. */
  protected final Storage delegate;

  ReadForwardingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  @Override
  public StorageLock lock(Path directory) throws IOException {
    return delegate.lock(directory);
  }

  @Override
  public ReadOnlyFile openRead(Path path) throws IOException {
    return delegate.openRead(path);
  }

  @Override
  public boolean isFile(Path path) throws IOException {
    return delegate.isFile(path);
  }

  @Override
  public boolean isDirectory(Path path) throws IOException {
    return delegate.isDirectory(path);
  }

  @Override
  public long size(Path path) throws IOException {
    return delegate.size(path);
  }

  @Override
  public byte[] readAllBytes(Path path) throws IOException {
    return delegate.readAllBytes(path);
  }

  @Override
  public Optional<String> probeLock(Path directory) throws IOException {
    return delegate.probeLock(directory);
  }
}
