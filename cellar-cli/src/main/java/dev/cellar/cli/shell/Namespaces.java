package dev.cellar.cli.shell;

import dev.cellar.Admin;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * HBase shell's namespace commands on top of what Cellar has. Cellar keeps no namespaces of its
 * own: a table's name carries its namespace ({@code ns:t}), so a namespace exists while it holds a
 * table, and {@code default} always. Listing and describing derive from the table names; dropping
 * refuses as HBase does ({@code default}, or a namespace that still has tables) and otherwise finds
 * no such namespace; creating one on its own, or with properties, is not supported. Stateless.
 */
final class Namespaces {

  static final String DEFAULT = "default";

  private Namespaces() {}

  /** The namespaces matching {@code regex}, sorted. */
  static List<String> list(Admin admin, String regex) {
    Pattern pattern;
    try {
      pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new ShellException(
          "list_namespace: '" + regex + "' is not a regular expression: " + e.getDescription());
    }
    return all(admin).stream().filter(ns -> pattern.matcher(ns).matches()).toList();
  }

  private static Set<String> all(Admin admin) {
    Set<String> namespaces = new TreeSet<>(Set.of(DEFAULT));
    for (String table : admin.listTables()) {
      namespaces.add(of(table));
    }
    return namespaces;
  }

  /** The namespace of {@code table}. */
  static String of(String table) {
    int colon = table.indexOf(':');
    return colon < 0 ? DEFAULT : table.substring(0, colon);
  }

  /** HBase's description of {@code namespace}, which has no properties in Cellar. */
  static String describe(Admin admin, String namespace) {
    if (!all(admin).contains(namespace)) {
      throw unknown(namespace);
    }
    return "{NAME => '" + namespace + "'}";
  }

  static void drop(Admin admin, String namespace) {
    if (namespace.equals(DEFAULT)) {
      throw new ShellException(
          "drop_namespace: reserved namespace " + DEFAULT + " cannot be removed");
    }
    List<String> tables =
        admin.listTables().stream().filter(table -> of(table).equals(namespace)).toList();
    if (tables.isEmpty()) {
      throw unknown(namespace);
    }
    throw new ShellException(
        "drop_namespace: only empty namespaces can be removed; namespace "
            + namespace
            + " has "
            + tables.size()
            + " tables: "
            + String.join(", ", tables));
  }

  static void create(Admin admin, String namespace) {
    if (all(admin).contains(namespace)) {
      throw new ShellException("create_namespace: namespace " + namespace + " already exists");
    }
    throw new ShellException(
        "create_namespace: Cellar keeps no namespaces apart from its tables; create a table in"
            + " the namespace instead, e.g. create '"
            + namespace
            + ":t1', 'f'");
  }

  private static ShellException unknown(String namespace) {
    return new ShellException("Unknown namespace " + namespace + "!");
  }
}
