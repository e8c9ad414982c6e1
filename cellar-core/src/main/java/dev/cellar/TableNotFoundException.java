package dev.cellar;

/** Thrown when a table named in a call does not exist. */
public final class TableNotFoundException extends IllegalArgumentException {

  public TableNotFoundException(String table) {
    super("no table named " + table);
  }
}
