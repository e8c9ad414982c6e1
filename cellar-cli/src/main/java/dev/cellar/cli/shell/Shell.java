package dev.cellar.cli.shell;

import dev.cellar.Admin;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.TableNotFoundException;
import dev.cellar.cell.Cell;
import dev.cellar.client.RemoteAdmin;
import dev.cellar.config.BuildVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commands of {@code cellar shell}, with HBase shell's names, arguments and output, on an
 * embedded database or a server ({@link Database}). {@link #run} executes one line and reports a
 * mistake or a failure as one {@code ERROR:} line, counting it, so a script goes on to its next
 * line. Enabling and disabling are a server's (embedded tables are always enabled). Not
 * thread-safe: one shell, one thread.
 */
final class Shell {

  /** The commands, for help and completion. */
  static final Set<String> COMMANDS = ShellHelp.commands();

  private final Database database;
  private final String where;
  private final ShellOutput out;
  private int errors;

  Shell(Database database, String where, ShellOutput out) {
    this.database = database;
    this.where = where;
    this.out = out;
  }

  int errors() {
    return errors;
  }

  /** Runs one line; false when it asks the shell to end. */
  boolean run(String text) {
    ShellParser.Line line;
    try {
      line = ShellParser.parse(text);
    } catch (ShellException e) {
      fail(e.getMessage());
      return true;
    }
    if (line == null) {
      return true;
    }
    if (line.command().equals("exit") || line.command().equals("quit")) {
      return false;
    }
    long start = System.nanoTime();
    try {
      execute(line.command(), new Arguments(line.command(), line.arguments()), start);
    } catch (ShellException
        | IllegalArgumentException
        | IllegalStateException
        | UnsupportedOperationException e) {
      fail(e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      fail(e.getMessage());
    }
    return true;
  }

  private void fail(String message) {
    errors++;
    out.line("ERROR: " + message);
  }

  private void execute(String command, Arguments args, long start) throws IOException {
    switch (command) {
      case "create" -> create(args, start);
      case "list" -> list(start);
      case "describe", "desc" -> describe(args.string(0, "table"), start);
      case "alter" -> alter(args, start);
      case "put" -> put(args, start);
      case "get" -> get(args, start);
      case "scan" -> scan(args, start);
      case "delete" -> {
        Deletes.one(database.table(args.string(0, "table")), args);
        out.took(start);
      }
      case "deleteall" -> {
        Deletes.all(database.table(args.string(0, "table")), admin(), args);
        out.took(start);
      }
      case "incr" -> Counters.incr(database, args, out, start);
      case "count" -> count(args, start);
      case "disable" -> remote("disable").disableTable(args.string(0, "table"));
      case "enable" -> remote("enable").enableTable(args.string(0, "table"));
      case "is_enabled" -> out.line(String.valueOf(enabled(args.string(0, "table"))));
      case "drop" -> drop(args.string(0, "table"), start);
      case "truncate" -> truncate(args.string(0, "table"), start);
      case "exists" -> exists(args.string(0, "table"), start);
      case "status" -> status(start);
      case "flush" -> admin().flush(args.string(0, "table"));
      case "compact" -> admin().compact(args.string(0, "table"));
      case "major_compact" -> admin().majorCompact(args.string(0, "table"));
      case "is_disabled" -> out.line(String.valueOf(!enabled(args.string(0, "table"))));
      case "get_counter" -> Counters.get(database, args, out, start);
      case "list_namespace" ->
          listNamespaces(args.size() > 0 ? args.string(0, "regular expression") : ".*", start);
      case "describe_namespace" -> describeNamespace(args.string(0, "namespace"), start);
      case "create_namespace" -> {
        Namespaces.create(admin(), args.string(0, "namespace"), properties(args));
        out.took(start);
      }
      case "drop_namespace" -> {
        Namespaces.drop(admin(), args.string(0, "namespace"));
        out.took(start);
      }
      case "version" -> out.line(BuildVersion.read() + ", Cellar, HBase 2.6 protocol");
      case "whoami" -> out.line(System.getProperty("user.name") + " (auth:SIMPLE)");
      case "help" ->
          out.line(
              args.size() > 0 ? ShellHelp.of(args.string(0, "command")) : ShellHelp.overview());
      default ->
          throw new ShellException(
              "unknown command '" + command + "'; 'help' lists" + " the commands");
    }
    if (Set.of("disable", "enable", "flush", "compact", "major_compact").contains(command)) {
      out.took(start);
    }
  }

  private Admin admin() {
    return database.admin();
  }

  private RemoteAdmin remote(String command) {
    if (admin() instanceof RemoteAdmin remote) {
      return remote;
    }
    throw new ShellException(
        command + ": the tables of an embedded database are always" + " enabled");
  }

  private boolean enabled(String table) throws IOException {
    if (admin() instanceof RemoteAdmin remote) {
      return remote.isEnabled(table);
    }
    if (!admin().tableExists(table)) {
      throw new TableNotFoundException(table);
    }
    return true;
  }

  private void create(Arguments args, long start) throws IOException {
    String table = args.string(0, "table");
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    byte[][] splitKeys = new byte[0][];
    for (int i = 1; i < args.size(); i++) {
      Object family = args.get(i);
      if (family instanceof Map<?, ?> spec && TableSplits.isTableOptions(spec)) {
        splitKeys = TableSplits.keys(spec);
      } else if (family instanceof Map<?, ?> spec) {
        Map<String, String> attributes = new LinkedHashMap<>();
        String name = null;
        for (Map.Entry<?, ?> entry : spec.entrySet()) {
          if (entry.getKey().equals("NAME")) {
            name = String.valueOf(entry.getValue());
          } else {
            attributes.put(String.valueOf(entry.getKey()), String.valueOf(entry.getValue()));
          }
        }
        if (name == null) {
          throw new ShellException("create: a family given as a hash needs NAME => 'family'");
        }
        families.add(ColumnFamilyDescriptor.of(name, attributes));
      } else {
        families.add(ColumnFamilyDescriptor.of(String.valueOf(family)));
      }
    }
    if (families.isEmpty()) {
      throw new ShellException("create: give at least one column family, e.g. create 't', 'f'");
    }
    admin().createTable(new TableDescriptor(table, families), splitKeys);
    out.line("Created table " + table);
    out.took(start);
    out.line("=> Hbase::Table - " + table);
  }

  /**
   * HBase's {@code alter}: each argument after the table changes one family. A family name or
   * {@code {NAME => 'f', ATTRIBUTE => value, ...}} adds the family if the table lacks it, else sets
   * the attributes given over the family's current ones; {@code 'delete' => 'f'} or {@code {METHOD
   * => 'delete', NAME => 'f'}} deletes it. Table attributes are not supported.
   */
  private void alter(Arguments args, long start) throws IOException {
    String table = args.string(0, "table");
    if (args.size() < 2) {
      throw new ShellException(
          "alter: give a family to change, e.g. alter '" + table + "', NAME => 'f', VERSIONS => 5");
    }
    for (int i = 1; i < args.size(); i++) {
      if (args.get(i) instanceof Map<?, ?> spec) {
        alterWith(table, spec);
      } else {
        alterFamily(table, args.string(i, "family"), Map.of());
      }
    }
    out.line("Updating all regions with the new schema...");
    out.line("1/1 regions updated.");
    out.line("Done.");
    out.took(start);
  }

  private void alterWith(String table, Map<?, ?> spec) throws IOException {
    Map<String, String> attributes = new LinkedHashMap<>();
    String name = null;
    String method = null;
    for (Map.Entry<?, ?> entry : spec.entrySet()) {
      String key = String.valueOf(entry.getKey());
      String value = String.valueOf(entry.getValue());
      switch (key) {
        case "NAME" -> name = value;
        case "METHOD" -> method = value;
        case "delete" -> {
          method = "delete";
          name = value;
        }
        default -> attributes.put(key.toUpperCase(java.util.Locale.ROOT), value);
      }
    }
    if (name == null) {
      throw new ShellException(
          "alter: name the family with NAME => 'family' (table attributes"
              + (attributes.isEmpty() ? "" : " such as " + attributes.keySet())
              + " are not supported)");
    }
    if (method == null) {
      alterFamily(table, name, attributes);
    } else if (method.equals("delete")) {
      if (!attributes.isEmpty()) {
        throw new ShellException(
            "alter: deleting family "
                + name
                + " takes no attributes, was"
                + " given "
                + attributes.keySet());
      }
      admin().deleteFamily(table, name);
    } else {
      throw new ShellException("alter: METHOD '" + method + "' is not supported; 'delete' is");
    }
  }

  /** Adds {@code family} with {@code attributes}, or sets them over its current ones. */
  private void alterFamily(String table, String family, Map<String, String> attributes)
      throws IOException {
    ColumnFamilyDescriptor existing = admin().describe(table).family(family);
    if (existing == null) {
      admin().addFamily(table, ColumnFamilyDescriptor.of(family, attributes));
      return;
    }
    Map<String, String> merged = new LinkedHashMap<>(existing.attributes());
    merged.putAll(attributes);
    admin().modifyFamily(table, ColumnFamilyDescriptor.of(family, merged));
  }

  private void list(long start) {
    out.line("TABLE");
    List<String> tables = admin().listTables();
    tables.forEach(out::line);
    out.rows(tables.size(), start);
    out.line("=> " + tables.stream().map(t -> "\"" + t + "\"").toList());
  }

  private void describe(String table, long start) throws IOException {
    TableDescriptor descriptor = admin().describe(table);
    out.line("Table " + table + " is " + (enabled(table) ? "ENABLED" : "DISABLED"));
    out.line(table);
    out.line("COLUMN FAMILIES DESCRIPTION");
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      StringBuilder line = new StringBuilder("{NAME => '").append(family.name()).append('\'');
      family
          .attributes()
          .forEach(
              (key, value) ->
                  line.append(", ").append(key).append(" => '").append(value).append('\''));
      out.line(line.append('}').toString());
    }
    out.line("");
    out.rows(descriptor.families().size(), start);
  }

  private void put(Arguments args, long start) throws IOException {
    Table table = database.table(args.string(0, "table"));
    byte[][] column = column(args.string(2, "column"));
    Put put = new Put(args.bytes(1, "row"));
    if (args.size() > 4) {
      put.addColumn(column[0], column[1], args.number(4, "timestamp"), args.bytes(3, "value"));
    } else {
      put.addColumn(column[0], column[1], args.bytes(3, "value"));
    }
    table.put(put);
    out.took(start);
  }

  /** {@code family:qualifier} (or {@code family}: a null qualifier) as bytes. */
  static byte[][] column(String spec) {
    int colon = spec.indexOf(':');
    if (colon < 0) {
      return new byte[][] {ShellBytes.of(spec), null};
    }
    return new byte[][] {
      ShellBytes.of(spec.substring(0, colon)), ShellBytes.of(spec.substring(colon + 1))
    };
  }

  private void get(Arguments args, long start) throws IOException {
    Table table = database.table(args.string(0, "table"));
    Get get = new Get(args.bytes(1, "row"));
    ShellOutput.Values values = ShellOutput.Values.SHOWN;
    for (int i = 2; i < args.size(); i++) {
      Object option = args.get(i);
      if (option instanceof Map<?, ?> map) {
        ReadOptions read = ReadOptions.of("get", map);
        read.columns.forEach(c -> addColumn(get, c));
        read.applyTo(get);
        values = read.values();
      } else if (option instanceof List<?> list) {
        list.forEach(c -> addColumn(get, String.valueOf(c)));
      } else {
        addColumn(get, String.valueOf(option));
      }
    }
    out.header("COLUMN", "CELL");
    try (Result result = table.get(get)) {
      for (Cell cell : result.rawCells()) {
        out.row(ShellOutput.column(cell), ShellOutput.cell(cell, values));
      }
      out.rows(result.isEmpty() ? 0 : 1, start);
    }
  }

  private static void addColumn(Get get, String spec) {
    byte[][] column = column(spec);
    if (column[1] == null) {
      get.addFamily(column[0]);
    } else {
      get.addColumn(column[0], column[1]);
    }
  }

  private static void addColumn(Scan scan, String spec) {
    byte[][] column = column(spec);
    if (column[1] == null) {
      scan.addFamily(column[0]);
    } else {
      scan.addColumn(column[0], column[1]);
    }
  }

  private void scan(Arguments args, long start) throws IOException {
    Table table = database.table(args.string(0, "table"));
    Scan scan = new Scan();
    ShellOutput.Values values = ShellOutput.Values.SHOWN;
    if (args.size() > 1) {
      if (!(args.get(1) instanceof Map<?, ?> map)) {
        throw new ShellException("scan: options go in a hash, e.g. scan 't', {LIMIT => 10}");
      }
      ReadOptions read = ReadOptions.of("scan", map);
      read.columns.forEach(c -> addColumn(scan, c));
      read.applyTo(scan);
      values = read.values();
    }
    out.header("ROW", "COLUMN+CELL");
    long rows = 0;
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result : scanner) {
        try (result) {
          String row = ShellBytes.show(result.row());
          for (Cell cell : result.rawCells()) {
            out.row(
                row, "column=" + ShellOutput.column(cell) + ", " + ShellOutput.cell(cell, values));
          }
          rows++;
        }
      }
    }
    out.rows(rows, start);
  }

  private void count(Arguments args, long start) throws IOException {
    Table table = database.table(args.string(0, "table"));
    long rows = 0;
    try (ResultScanner scanner = table.scanner(new Scan().setCaching(1000))) {
      for (Result result : scanner) {
        result.close();
        rows++;
      }
    }
    out.line(rows + " row(s)");
    out.took(start);
    out.line("=> " + rows);
  }

  private static Map<String, String> properties(Arguments args) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (args.size() > 1) {
      if (!(args.get(1) instanceof Map<?, ?> hash)) {
        throw new ShellException(
            "create_namespace: properties go in a hash, e.g. create_namespace 'ns1',"
                + " {'PROPERTY' => 'value'}");
      }
      hash.forEach((key, value) -> properties.put(String.valueOf(key), String.valueOf(value)));
    }
    return properties;
  }

  private void listNamespaces(String regex, long start) throws IOException {
    out.line("NAMESPACE");
    List<String> namespaces = Namespaces.list(admin(), regex);
    namespaces.forEach(out::line);
    out.rows(namespaces.size(), start);
  }

  private void describeNamespace(String namespace, long start) throws IOException {
    String description = Namespaces.describe(admin(), namespace);
    out.line("DESCRIPTION");
    out.line(description);
    out.line("Quota is disabled");
    out.took(start);
  }

  private void drop(String table, long start) throws IOException {
    if (admin() instanceof RemoteAdmin remote && remote.isEnabled(table)) {
      throw new ShellException("Table " + table + " is enabled. Disable it first.");
    }
    admin().dropTable(table);
    out.took(start);
  }

  private void truncate(String table, long start) throws IOException {
    out.line("Truncating '" + table + "' table (it may take a while):");
    if (admin() instanceof RemoteAdmin remote) {
      if (remote.isEnabled(table)) {
        out.line("Disabling table...");
        remote.disableTable(table);
      }
      out.line("Truncating table...");
      remote.truncateTable(table);
    } else {
      TableDescriptor descriptor = admin().describe(table);
      out.line("Truncating table...");
      admin().dropTable(table);
      admin().createTable(descriptor);
    }
    out.took(start);
  }

  private void exists(String table, long start) {
    out.line("Table " + table + (admin().tableExists(table) ? " does exist" : " does not exist"));
    out.took(start);
  }

  private void status(long start) {
    int tables = admin().listTables().size();
    if (admin() instanceof RemoteAdmin) {
      out.line(
          "1 active master, 0 backup masters, 1 servers, 0 dead, "
              + tables
              + " tables ("
              + where
              + ")");
    } else {
      out.line("embedded database in " + where + ", " + tables + " tables");
    }
    out.took(start);
  }
}
