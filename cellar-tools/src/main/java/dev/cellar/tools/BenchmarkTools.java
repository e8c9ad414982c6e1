package dev.cellar.tools;

import dev.cellar.cli.CommandModule;
import dev.cellar.cli.pe.PeCommand;
import dev.cellar.cli.ycsb.YcsbCommand;
import java.util.List;

/** The benchmark tools' commands, added to {@code cellar} when this module is on the class path. */
public final class BenchmarkTools implements CommandModule {

  @Override
  public List<Class<?>> commands() {
    return List.of(DemoCommand.class, PeCommand.class, YcsbCommand.class, BenchCommand.class);
  }
}
