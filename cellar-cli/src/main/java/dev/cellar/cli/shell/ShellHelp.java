package dev.cellar.cli.shell;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The usage text of each command, which {@code help 'get'} prints as HBase's shell does, and the
 * overview {@code help} prints. The commands are the keys here; {@link Shell} runs them. Stateless.
 */
final class ShellHelp {

  private static final Map<String, String> USAGE = new TreeMap<>();

  static {
    usage(
        "create",
        """
        Create a table with one or more column families, each a name or a hash of its
        attributes (NAME, VERSIONS, TTL, BLOCKSIZE, BLOOMFILTER, COMPRESSION, ...):
          create 't1', 'f1', 'f2'
          create 'ns1:t1', {NAME => 'f1', VERSIONS => 5}
        Pre-split it into regions with split keys, a file of them (one per line), or a
        number of regions cut by HBase's HexStringSplit, DecimalStringSplit or UniformSplit:
          create 't1', 'f1', SPLITS => ['10', '20', '30']
          create 't1', 'f1', SPLITS_FILE => 'splits.txt'
          create 't1', 'f1', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}
        """);
    usage(
        "list",
        """
        List the tables:
          list
        """);
    usage(
        "describe",
        """
        Show whether a table is enabled and its column families with their attributes
        (also: desc):
          describe 't1'
        """);
    usage(
        "alter",
        """
        Change a table's column families: add one or set attributes over its current ones,
        or delete one:
          alter 't1', NAME => 'f1', VERSIONS => 5
          alter 't1', {NAME => 'f2', COMPRESSION => 'GZ'}, 'f3'
          alter 't1', 'delete' => 'f3'
          alter 't1', METHOD => 'delete', NAME => 'f2'
        """);
    usage(
        "put",
        """
        Write a value at a row and column, at a timestamp or now:
          put 't1', 'r1', 'f1:q', 'value'
          put 't1', 'r1', 'f1:q', 'value', 1700000000000
        """);
    usage(
        "get",
        """
        Read a row, or some columns of it, with options COLUMN(S), VERSIONS, TIMERANGE,
        TIMESTAMP and FILTER:
          get 't1', 'r1'
          get 't1', 'r1', 'f1:q', 'f2'
          get 't1', 'r1', {COLUMN => 'f1:q', VERSIONS => 3}
          get 't1', 'r1', {TIMERANGE => [0, 1700000000000]}
          get 't1', 'r1', {FILTER => "ValueFilter(=, 'binary:v')"}
        """);
    usage(
        "scan",
        """
        Read rows, with options COLUMN(S), STARTROW, STOPROW, LIMIT, REVERSED, CACHE,
        VERSIONS, TIMERANGE, TIMESTAMP and FILTER (HBase's filter language):
          scan 't1'
          scan 't1', {COLUMNS => ['f1:q', 'f2'], STARTROW => 'r1', LIMIT => 10}
          scan 't1', {FILTER => "PrefixFilter('r') AND KeyOnlyFilter()"}
          scan 't1', {FILTER => "SingleColumnValueFilter('f1', 'q', =, 'binary:v', true, true)"}
        """);
    usage(
        "delete",
        """
        Delete one version of a column: the newest, or the one at the timestamp given.
        Given a family, delete the versions of all its columns at that timestamp:
          delete 't1', 'r1', 'f1:q'
          delete 't1', 'r1', 'f1:q', 1700000000000
        """);
    usage(
        "deleteall",
        """
        Delete every version of a row, of a column or of a family, up to the timestamp
        when one is given ('' as the column: the whole row). A row prefix deletes every row
        starting with it, CACHE rows at a time (100):
          deleteall 't1', 'r1'
          deleteall 't1', 'r1', 'f1:q'
          deleteall 't1', 'r1', 'f1', 1700000000000
          deleteall 't1', 'r1', '', 1700000000000
          deleteall 't1', {ROWPREFIXFILTER => 'r', CACHE => 100}, 'f1:q'
        """);
    usage(
        "incr",
        """
        Add to a counter (an 8-byte big-endian long) at a row and column, by 1 or the amount
        given, and print its new value:
          incr 't1', 'r1', 'f1:hits'
          incr 't1', 'r1', 'f1:hits', 10
        """);
    usage(
        "get_counter",
        """
        Print a counter's value (an 8-byte big-endian long, as incr writes):
          get_counter 't1', 'r1', 'f1:hits'
        """);
    usage(
        "count",
        """
        Count a table's rows:
          count 't1'
        """);
    usage(
        "disable",
        """
        Disable a table on a server (embedded tables are always enabled):
          disable 't1'
        """);
    usage(
        "enable",
        """
        Enable a disabled table on a server:
          enable 't1'
        """);
    usage(
        "is_enabled",
        """
        Print whether a table is enabled:
          is_enabled 't1'
        """);
    usage(
        "is_disabled",
        """
        Print whether a table is disabled:
          is_disabled 't1'
        """);
    usage(
        "drop",
        """
        Drop a table (on a server, disable it first):
          drop 't1'
        """);
    usage(
        "truncate",
        """
        Empty a table, keeping its column families:
          truncate 't1'
        """);
    usage(
        "exists",
        """
        Print whether a table exists:
          exists 't1'
        """);
    usage(
        "status",
        """
        Print a summary of the server or embedded database:
          status
        """);
    usage(
        "flush",
        """
        Write a table's memstore to files:
          flush 't1'
        """);
    usage(
        "compact",
        """
        Ask for a minor compaction of a table:
          compact 't1'
        """);
    usage(
        "major_compact",
        """
        Ask for a major compaction of a table:
          major_compact 't1'
        """);
    usage(
        "list_namespace",
        """
        List the namespaces, those matching a regular expression if one is given:
          list_namespace
          list_namespace 'ns.*'
        """);
    usage(
        "describe_namespace",
        """
        Describe a namespace:
          describe_namespace 'ns1'
        """);
    usage(
        "create_namespace",
        """
        Not supported: Cellar keeps a namespace only while it holds a table, so create a
        table in it instead:
          create 'ns1:t1', 'f1'
        """);
    usage(
        "drop_namespace",
        """
        Drop an empty namespace; in Cellar a namespace empties and goes with its last table:
          drop_namespace 'ns1'
        """);
    usage(
        "version",
        """
        Print Cellar's version:
          version
        """);
    usage(
        "whoami",
        """
        Print the user the shell runs as:
          whoami
        """);
    usage(
        "help",
        """
        List the commands, or print a command's usage:
          help
          help 'get'
        """);
    usage(
        "exit",
        """
        End the shell (also: quit):
          exit
        """);
    usage(
        "quit",
        """
        End the shell (also: exit):
          quit
        """);
  }

  private ShellHelp() {}

  private static void usage(String command, String text) {
    USAGE.put(command, text.stripTrailing());
  }

  /** Every command's name, sorted. */
  static Set<String> commands() {
    return Collections.unmodifiableSet(USAGE.keySet());
  }

  /** The overview of {@code help}. */
  static String overview() {
    return "Commands: "
        + String.join(", ", USAGE.keySet())
        + "\nFor a command's usage and examples: help 'command', e.g. help 'get'";
  }

  /** The usage of {@code command}. */
  static String of(String command) {
    String text = USAGE.get(command.equals("desc") ? "describe" : command);
    if (text == null) {
      throw new ShellException(
          "help: no command named '" + command + "'; 'help' lists the commands");
    }
    return text;
  }
}
