package dev.cellar.cli.pe;

import dev.cellar.CellarConfig;

/**
 * Where and how a PE run opens its database and what it does around the measured phase.
 *
 * @param directory the database directory or URI ({@code --dir}), or null for a temporary one
 * @param keep keep a temporary directory at the end ({@code --keep})
 * @param config the configuration ({@code --conf} file and {@code -D} overrides)
 * @param load run sequentialWrite before a read command ({@code --load})
 * @param compact major-compact the table after writing ({@code --compact})
 * @param connect the {@code host:port} of a server to run against through Cellar's client ({@code
 *     --connect}), or null for an embedded database
 */
public record PeSetup(
    String directory,
    boolean keep,
    CellarConfig config,
    boolean load,
    boolean compact,
    String connect) {

  /** An embedded run's setup. */
  public PeSetup(
      String directory, boolean keep, CellarConfig config, boolean load, boolean compact) {
    this(directory, keep, config, load, compact, null);
  }
}
