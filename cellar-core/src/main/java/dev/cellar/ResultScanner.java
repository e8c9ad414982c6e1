package dev.cellar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The rows of a {@link Scan}, one {@link Result} at a time. Each result holds the memory of its
 * cells until the caller closes it; closing the scanner releases what the scan itself holds. Not
 * thread-safe.
 */
public interface ResultScanner extends AutoCloseable, Iterable<Result> {

  /** The next row, or null at the end. */
  Result next() throws IOException;

  @Override
  void close();

  /** Iterates the rows; I/O errors surface as {@link UncheckedIOException}. */
  @Override
  default Iterator<Result> iterator() {
    return new Iterator<>() {
      private Result next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          try {
            next = ResultScanner.this.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return next != null;
      }

      @Override
      public Result next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Result result = next;
        next = null;
        return result;
      }
    };
  }
}
