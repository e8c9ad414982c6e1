package dev.cellar.cli.shell;

import dev.cellar.Admin;
import dev.cellar.client.RemoteAdmin;
import dev.cellar.client.rpc.RemoteException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * HBase shell's namespace commands. A server has namespaces of its own, which these list, describe,
 * create and drop through its master. An embedded database keeps none: a table's name carries its
 * namespace ({@code ns:t}), so there a namespace exists while it holds a table, and {@code default}
 * always; listing and describing derive from the table names, dropping refuses as HBase does
 * ({@code default}, or a namespace that still has tables) and otherwise finds no such namespace,
 * and creating one on its own is not supported. Stateless.
 */
final class Namespaces {

  private static final String DEFAULT = "default";

  private Namespaces() {}

  /** The namespaces matching {@code regex}, sorted. */
  static List<String> list(Admin admin, String regex) throws IOException {
    Pattern pattern;
    try {
      pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new ShellException(
          "list_namespace: '" + regex + "' is not a regular expression: " + e.getDescription());
    }
    List<String> all =
        admin instanceof RemoteAdmin remote
            ? remote.listNamespaces()
            : List.copyOf(ofTables(admin));
    return all.stream().filter(ns -> pattern.matcher(ns).matches()).toList();
  }

  /** HBase's description of {@code namespace}: its name and properties. */
  static String describe(Admin admin, String namespace) throws IOException {
    StringBuilder description = new StringBuilder("{NAME => '").append(namespace).append('\'');
    if (admin instanceof RemoteAdmin remote) {
      known(namespace, () -> remote.describeNamespace(namespace))
          .forEach(
              (key, value) ->
                  description.append(", ").append(key).append(" => '").append(value).append('\''));
    } else if (!ofTables(admin).contains(namespace)) {
      throw unknown(namespace);
    }
    return description.append('}').toString();
  }

  static void create(Admin admin, String namespace, Map<String, String> properties)
      throws IOException {
    if (admin instanceof RemoteAdmin remote) {
      remote.createNamespace(namespace, properties);
      return;
    }
    if (ofTables(admin).contains(namespace)) {
      throw new ShellException("create_namespace: namespace " + namespace + " already exists");
    }
    throw new ShellException(
        "create_namespace: an embedded database keeps no namespaces apart from its tables;"
            + " create a table in the namespace instead, e.g. create '"
            + namespace
            + ":t1', 'f'");
  }

  static void drop(Admin admin, String namespace) throws IOException {
    if (admin instanceof RemoteAdmin remote) {
      known(
          namespace,
          () -> {
            remote.deleteNamespace(namespace);
            return null;
          });
      return;
    }
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

  /** A call to a server, its NamespaceNotFoundException in HBase shell's words. */
  private static <T> T known(String namespace, Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (RemoteException e) {
      if (e.is("NamespaceNotFoundException")) {
        throw unknown(namespace);
      }
      throw e;
    }
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  private static Set<String> ofTables(Admin admin) {
    Set<String> namespaces = new TreeSet<>(Set.of(DEFAULT));
    for (String table : admin.listTables()) {
      namespaces.add(of(table));
    }
    return namespaces;
  }

  private static String of(String table) {
    int colon = table.indexOf(':');
    return colon < 0 ? DEFAULT : table.substring(0, colon);
  }

  private static ShellException unknown(String namespace) {
    return new ShellException("Unknown namespace " + namespace + "!");
  }
}
