package dev.cellar.cli;

import java.util.List;

/**
 * Subcommands of {@code cellar} that live in a module of their own, found with {@link
 * java.util.ServiceLoader} when that module is on the class path. The benchmark tools ({@code
 * demo}, {@code pe}, {@code ycsb}, {@code bench}) are one: they bring JMH, RocksDB, YCSB and
 * HBase's server jars, which {@code cellar serve} must not load, so the launcher puts them on the
 * class path only for their commands and for the full help.
 */
public interface CommandModule {

  /** The command classes, each annotated with picocli's {@code @Command}, in listing order. */
  List<Class<?>> commands();
}
