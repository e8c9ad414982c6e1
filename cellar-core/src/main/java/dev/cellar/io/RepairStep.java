package dev.cellar.io;

import java.io.IOException;

/**
 * One change a repair makes, said before it is made: {@code what} is printed by a dry run and
 * written to the repair's report; {@code action} makes it, setting aside in {@code lost} what it
 * takes out of the way. Repairs plan every step reading only, then run them in order.
 *
 * @param what the change on one line, naming its file
 * @param action the change
 */
public record RepairStep(String what, Action action) {

  /** A change to storage; anything it takes away goes to {@code lost}, never away. */
  @FunctionalInterface
  public interface Action {
    void run(LostAndFound lost) throws IOException;
  }
}
