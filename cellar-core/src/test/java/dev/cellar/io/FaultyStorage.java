package dev.cellar.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A {@link Storage} over another that fails an operation on command: every operation (creating,
 * writing or forcing a file, renaming, deleting, listing, creating or forcing a directory) is
 * counted, and the first one a test's rule accepts throws an {@link IOException} ("injected
 * failure"), once. Files are created by the wrapped storage and wrapped to check each write and
 * force; reads, queries and taking a directory's lock are passed on unchecked. Thread-safe.
 */
public final class FaultyStorage extends ReadForwardingStorage {

  /** The kinds of operations a rule can pick. */
  public enum Kind {
    CREATE,
    WRITE,
    FORCE,
    RENAME,
    DELETE,
    LIST,
    CREATE_DIRECTORIES,
    SYNC_DIRECTORY
  }

  /** One operation: its kind, its path, and how many operations came before it. */
  public record Operation(Kind kind, Path path, int index) {}

  private final AtomicInteger operations = new AtomicInteger();
  private final AtomicReference<Predicate<Operation>> rule = new AtomicReference<>();

  public FaultyStorage(Storage delegate) {
    super(delegate);
  }

  /** Fails the next operation {@code rule} accepts, once. */
  public void failNext(Predicate<Operation> rule) {
    this.rule.set(rule);
  }

  /** Fails the operation with this index (see {@link #operations()}), once. */
  public void failAt(int index) {
    failNext(operation -> operation.index() == index);
  }

  /** Fails the next operation of {@code kind} on a path under {@code directory}, once. */
  public void failNext(Kind kind, Path directory) {
    failNext(operation -> operation.kind() == kind && operation.path().startsWith(directory));
  }

  /** Stops failing operations not failed yet. */
  public void heal() {
    rule.set(null);
  }

  /** How many operations ran so far. */
  public int operations() {
    return operations.get();
  }

  /** Whether the rule set last has not fired yet. */
  public boolean armed() {
    return rule.get() != null;
  }

  private void check(Kind kind, Path path) throws IOException {
    Operation operation = new Operation(kind, path, operations.getAndIncrement());
    Predicate<Operation> current = rule.get();
    if (current != null && current.test(operation) && rule.compareAndSet(current, null)) {
      throw new IOException("injected failure of " + kind + " " + path);
    }
  }

  @Override
  public AppendOnlyFile create(Path path) throws IOException {
    check(Kind.CREATE, path);
    return new CheckedFile(delegate.create(path));
  }

  @Override
  public void createDirectories(Path directory) throws IOException {
    check(Kind.CREATE_DIRECTORIES, directory);
    delegate.createDirectories(directory);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    check(Kind.RENAME, target);
    delegate.rename(source, target);
  }

  @Override
  public boolean deleteIfExists(Path path) throws IOException {
    check(Kind.DELETE, path);
    return delegate.deleteIfExists(path);
  }

  @Override
  public List<Path> list(Path directory) throws IOException {
    check(Kind.LIST, directory);
    return delegate.list(directory);
  }

  @Override
  public void syncDirectory(Path directory) throws IOException {
    check(Kind.SYNC_DIRECTORY, directory);
    delegate.syncDirectory(directory);
  }

  @Override
  public void truncate(Path path, long length) throws IOException {
    check(Kind.WRITE, path);
    delegate.truncate(path, length);
  }

  /** A file whose writes and forces go through the rule first. */
  private final class CheckedFile extends AppendOnlyFile {
    private final AppendOnlyFile file;

    CheckedFile(AppendOnlyFile file) {
      super(file.path());
      this.file = file;
    }

    @Override
    public void append(ByteBuffer[] buffers) throws IOException {
      check(Kind.WRITE, path());
      long before = file.position();
      file.append(buffers);
      advance(file.position() - before);
    }

    @Override
    protected void write(ByteBuffer buffer) throws IOException {
      check(Kind.WRITE, path());
      long before = file.position();
      file.write(buffer);
      advance(file.position() - before);
    }

    @Override
    public void sync() throws IOException {
      check(Kind.FORCE, path());
      file.sync();
    }

    @Override
    public void syncData() throws IOException {
      check(Kind.FORCE, path());
      file.syncData();
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }
}
