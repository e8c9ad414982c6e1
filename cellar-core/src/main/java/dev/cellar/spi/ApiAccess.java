package dev.cellar.spi;

import dev.cellar.cell.Cell;
import dev.cellar.row.Pins;
import dev.cellar.row.PointReads;
import dev.cellar.row.RowStream;
import java.util.List;

/**
 * For Cellar's own modules: makes the public API's read types ({@code Result}, {@code RowReader},
 * {@code RowScanner}) over cells and row sources of their own (the client), and takes the pins of a
 * {@code RowView} (a server sending cells straight from cached blocks). Those types take them only
 * through package-private constructors, so that no internal type shows in a public signature of
 * {@code dev.cellar}; the API package registers its {@link Makers} here when its class {@code
 * dev.cellar.ApiMakers} is initialized, which {@link #makers()} brings about on first use. This
 * package sits below {@code dev.cellar}, hence the type parameters instead of the API's types.
 *
 * <p>Thread-safe: the makers are published once, through a volatile field.
 */
public final class ApiAccess {

  private static final String REGISTRANT = "dev.cellar.ApiMakers";

  /**
   * Makers of the API's read types.
   *
   * @param <G> the Get
   * @param <T> the Result
   * @param <R> the RowReader
   * @param <S> the RowScanner
   * @param <V> the RowView
   */
  public interface Makers<G, T, R, S, V> {

    /**
     * A result over {@code cells}, whose memory {@code pins} (null for none) holds: the result
     * takes the pins over and releases them once, when it is closed (or collected unclosed).
     */
    T result(List<? extends Cell> cells, Pins pins);

    /** A RowReader over {@code reads}, which it closes with itself. */
    R rowReader(PointReads<G> reads);

    /** A RowScanner of {@code rows}' rows up to {@code limit}, closing them with itself. */
    S rowScanner(RowStream rows, long limit);

    /**
     * Adds to {@code into} a reference to each block {@code view} pins; the cells the view reports
     * {@code isInPinnedBlock} stay readable until the owner of {@code into} releases it, even after
     * the view moves on to its next row or its reader closes.
     */
    void retainPins(V view, Pins into);
  }

  private static volatile Makers<?, ?, ?, ?, ?> makers;

  private ApiAccess() {}

  /**
   * Registers the API's makers (called by {@code dev.cellar} only).
   *
   * @throws IllegalStateException if makers were registered already
   */
  public static synchronized void register(Makers<?, ?, ?, ?, ?> registered) {
    if (makers != null) {
      throw new IllegalStateException("the API's makers are registered already");
    }
    makers = registered;
  }

  /** The API's makers, typed as the caller names the API's types. */
  @SuppressWarnings("unchecked")
  public static <G, T, R, S, V> Makers<G, T, R, S, V> makers() {
    Makers<?, ?, ?, ?, ?> current = makers;
    if (current == null) {
      try {
        Class.forName(REGISTRANT, true, ApiAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(REGISTRANT + " is missing from cellar-core", e);
      }
      current = makers;
    }
    return (Makers<G, T, R, S, V>) current;
  }
}
