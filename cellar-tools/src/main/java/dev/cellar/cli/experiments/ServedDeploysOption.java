package dev.cellar.cli.experiments;

import picocli.CommandLine.Option;

/**
 * {@code --connect [HOST]} of the experiments whose deploys differ in heap and cache settings
 * (showdown, offheap): such a deploy needs a server started with its settings, so instead of using
 * one running server the experiment starts a {@code cellar serve} per deploy itself, on a free port
 * of HOST, and runs its loads and reads through Cellar's client.
 */
public final class ServedDeploysOption {

  @Option(
      names = "--connect",
      arity = "0..1",
      paramLabel = "HOST",
      fallbackValue = "127.0.0.1",
      description =
          "run through the network: each deploy is a cellar serve of its own (its heap"
              + " and cache settings) on a free port of HOST (default 127.0.0.1), loaded and read"
              + " through Cellar's client from this process")
  String connect;

  /**
   * The host the deploys' servers listen on, or null to run the deploys embedded.
   *
   * @throws IllegalArgumentException when a port was given: the experiment picks free ports
   */
  public String host() {
    if (connect != null && (connect.isEmpty() || connect.contains(":"))) {
      throw new IllegalArgumentException(
          "--connect takes a host here, not '"
              + connect
              + "':"
              + " every deploy needs a server started with its own heap and cache settings, so"
              + " this experiment starts one per deploy on a free port");
    }
    return connect;
  }
}
