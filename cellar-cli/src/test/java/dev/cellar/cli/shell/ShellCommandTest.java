package dev.cellar.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.RegionInfo;
import dev.cellar.SplitAlgorithm;
import dev.cellar.cli.CliRun;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cellar shell} with scripts piped into its standard input, on an embedded database and on a
 * server through {@code --connect}: the HBase shell's commands and their output, and one {@code
 * ERROR:} line (and exit code 1) for each mistake.
 */
class ShellCommandTest {

  @TempDir Path dir;

  private static CliRun shell(String script, String... args) {
    InputStream original = System.in;
    try {
      System.setIn(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)));
      String[] command = new String[args.length + 1];
      command[0] = "shell";
      System.arraycopy(args, 0, command, 1, args.length);
      return CliRun.of(command);
    } finally {
      System.setIn(original);
    }
  }

  /** Runs {@code script} on an embedded database, or on a server over the same directory. */
  private CliRun run(String mode, String script) throws IOException {
    if (mode.equals("embedded")) {
      return shell(script, "--create", dir.toString());
    }
    CellarConfig config =
        CellarConfig.defaults().with(ServerOptions.PORT, "0").with(ServerOptions.HANDLERS, "2");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      return shell(script, "--connect", server.hostAndPort());
    }
  }

  private static final String DATA =
      """
      create 't', 'f', {NAME => 'g', VERSIONS => 3}
      put 't', 'r1', 'f:a', 'one', 10
      put 't', 'r1', 'g:b', 'v1', 1
      put 't', 'r1', 'g:b', 'v2', 2
      put 't', 'r2', 'f:a', 'two', 20
      put 't', "r\\x003", 'f:a', 'three', 30
      """;

  /** A line of HBase's two-column layout: one space, {@code left}, padding, {@code right}. */
  private static void assertLine(String out, String left, String right) {
    Pattern line =
        Pattern.compile("(?m)^ " + Pattern.quote(left) + " +" + Pattern.quote(right) + "$");
    assertTrue(line.matcher(out).find(), "no line '" + left + " ... " + right + "' in\n" + out);
  }

  private static int count(String text, String part) {
    Matcher m = Pattern.compile(Pattern.quote(part)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void writesAndReadsWithHBaseSyntaxAndOutput(String mode) throws IOException {
    CliRun run =
        run(
            mode,
            DATA
                + """
        list
        exists 't'
        exists 'nope'
        describe 't'
        get 't', 'r1'
        get 't', 'r1', {COLUMN => 'g:b', VERSIONS => 3}
        get 't', 'r1', {COLUMN => 'g:b', TIMERANGE => [0, 2]}
        scan 't'
        scan 't', {STARTROW => 'r2', LIMIT => 1}
        scan 't', {COLUMNS => ['f:a'], REVERSED => true}
        scan 't', {FILTER => "ValueFilter(=, 'binary:two') OR PrefixFilter('r1')", COLUMNS => 'f'}
        count 't'
        incr 't', 'c', 'f:n', 5
        incr 't', 'c', 'f:n'
        """);
    assertEquals(0, run.exit(), run.toString());
    String out = run.out();
    assertTrue(out.contains("Created table t"), out);
    assertTrue(out.contains("TABLE\nt\n1 row(s)"), out);
    assertTrue(out.contains("Table t does exist"), out);
    assertTrue(out.contains("Table nope does not exist"), out);
    assertTrue(out.contains("Table t is ENABLED"), out);
    assertTrue(out.contains("{NAME => 'g', BLOCKSIZE => '65536', "), out);
    assertTrue(out.contains("VERSIONS => '3', TTL => 'FOREVER'"), out);
    assertLine(out, "COLUMN", "CELL");
    assertLine(out, "f:a", "timestamp=1970-01-01T00:00:00.010Z, value=one");
    assertLine(out, "g:b", "timestamp=1970-01-01T00:00:00.001Z, value=v1");
    assertLine(out, "ROW", "COLUMN+CELL");
    assertLine(out, "r\\x003", "column=f:a, timestamp=1970-01-01T00:00:00.030Z, value=three");
    assertTrue(out.contains("3 row(s)\nTook"), out);
    assertTrue(out.contains("COUNTER VALUE = 5"), out);
    assertTrue(out.contains("COUNTER VALUE = 6"), out);
    assertEquals(
        3,
        count(out, "value=v2"),
        "the first get, the get of 3 versions and the full" + " scan: " + out);
    assertEquals(
        2, count(out, "value=v1"), "only the get of 3 versions and the time range: " + out);
    assertTrue(out.contains("=> 3"), "count: " + out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void deletesTruncatesAndDrops(String mode) throws IOException {
    String disable = mode.equals("remote") ? "disable 't'\n" : "";
    CliRun run =
        run(
            mode,
            DATA
                + """
        deleteall 't', 'r1', 'g:b'
        get 't', 'r1'
        deleteall 't', 'r2'
        scan 't'
        flush 't'
        compact 't'
        major_compact 't'
        truncate 't'
        count 't'
        """
                + disable
                + """
        drop 't'
        list
        status
        """);
    assertEquals(0, run.exit(), run.toString());
    String out = run.out();
    assertEquals(0, count(out, "value=v"), out);
    assertTrue(out.contains("Truncating 't' table (it may take a while):"), out);
    assertTrue(out.contains("0 row(s)\nTook"), out);
    assertTrue(out.contains("TABLE\n0 row(s)"), out);
    assertTrue(out.contains("0 tables"), out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void deleteRemovesOneVersionAndDeleteallEveryVersion(String mode) throws IOException {
    CliRun run =
        run(
            mode,
            DATA
                + """
        put 't', 'r1', 'g:b', 'v3', 3
        delete 't', 'r1', 'g:b'
        get 't', 'r1', {COLUMN => 'g:b', VERSIONS => 3}
        delete 't', 'r1', 'g:b', 1
        get 't', 'r1', {COLUMN => 'g:b', VERSIONS => 3}
        delete 't', 'r1', 'g:nothing'
        put 't', 'r1', 'g:b', 'v4', 4
        deleteall 't', 'r1', 'g:b', 2
        get 't', 'r1', {COLUMN => 'g:b', VERSIONS => 3}
        put 't', 'p1', 'f:a', 'x', 5
        put 't', 'p2', 'f:a', 'y', 40
        deleteall 't', {ROWPREFIXFILTER => 'p', CACHE => 1}, '', 30
        deleteall 't', 'r1', 'g'
        scan 't', {VERSIONS => 3}
        """);
    assertEquals(0, run.exit(), run.toString());
    String[] gets = run.out().split("COLUMN +CELL");
    assertEquals(4, gets.length, run.out());
    assertTrue(gets[1].contains("value=v2") && gets[1].contains("value=v1"), gets[1]);
    assertFalse(gets[1].contains("value=v3"), "only the newest version goes: " + gets[1]);
    assertTrue(gets[2].contains("value=v2") && !gets[2].contains("value=v1"), gets[2]);
    assertTrue(gets[3].contains("value=v4") && !gets[3].contains("value=v2"), gets[3]);
    String scan = gets[3];
    assertFalse(scan.contains("value=x"), "p1 at 5 is under 30: " + scan);
    assertTrue(scan.contains("value=y"), "p2 at 40 is over 30: " + scan);
    assertFalse(scan.contains("column=g:"), "deleteall of family g: " + scan);
    assertTrue(scan.contains("value=one"), scan);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void countersNamespacesAndTheSessionCommands(String mode) throws IOException {
    CliRun run =
        run(
            mode,
            DATA
                + """
        incr 't', 'c', 'f:n', 7
        get_counter 't', 'c', 'f:n'
        get_counter 't', 'c', 'f:none'
        is_disabled 't'
        version
        whoami
        help 'get'
        help
        """);
    assertEquals(0, run.exit(), run.toString());
    String out = run.out();
    assertTrue(out.contains("COUNTER VALUE = 7\nTook"), out);
    assertTrue(out.contains("No counter found at specified coordinates\nTook"), out);
    assertTrue(out.contains("\nfalse\n"), out);
    assertTrue(out.contains(", Cellar, HBase 2.6 protocol\n"), out);
    assertTrue(out.contains(System.getProperty("user.name") + " (auth:SIMPLE)\n"), out);
    assertTrue(out.contains("  get 't1', 'r1', {COLUMN => 'f1:q', VERSIONS => 3}\n"), out);
    assertTrue(out.contains("Commands: alter, compact, count, create, create_namespace,"), out);
  }

  @Test
  void aServerHasNamespacesOfItsOwnAndTablesInThem() throws IOException {
    CliRun run =
        run(
            "remote",
            """
        create_namespace 'ns1', {'team' => 'ops'}
        create 'ns1:t1', 'f'
        put 'ns1:t1', 'r', 'f:q', 'in ns1'
        scan 'ns1:t1'
        list
        drop_namespace 'ns1'
        disable 'ns1:t1'
        drop 'ns1:t1'
        list_namespace
        describe_namespace 'ns1'
        drop_namespace 'ns1'
        list_namespace 'ns.*'
        describe_namespace 'ns1'
        drop_namespace 'default'
        """);
    String out = run.out();
    assertEquals(1, run.exit(), run.toString());
    assertTrue(out.contains("NAMESPACE\ndefault\nhbase\nns1\n3 row(s)\nTook"), out);
    assertTrue(
        out.contains("DESCRIPTION\n{NAME => 'ns1', team => 'ops'}\nQuota is disabled\nTook"), out);
    assertTrue(out.contains("NAMESPACE\n0 row(s)\nTook"), out);
    assertTrue(out.contains("value=in ns1"), out);
    assertTrue(out.contains("TABLE\nns1:t1\n1 row(s)"), out);
    assertTrue(
        out.contains("ERROR: ConstraintException: Only empty namespaces can be removed."), out);
    assertEquals(3, count(out, "ERROR: "), out);
    assertTrue(out.contains("ERROR: Unknown namespace ns1!\n"), out);
    assertTrue(out.contains("ERROR: ConstraintException: Reserved namespace default"), out);
  }

  @Test
  void anEmbeddedDatabaseHasTheNamespacesOfItsTables() throws IOException {
    CliRun run =
        run(
            "embedded",
            """
        create 'ns1:t1', 'f'
        create 't', 'f'
        list_namespace
        list_namespace 'n.*'
        describe_namespace 'ns1'
        """);
    assertEquals(0, run.exit(), run.toString());
    String out = run.out();
    assertTrue(out.contains("NAMESPACE\ndefault\nns1\n2 row(s)\nTook"), out);
    assertTrue(out.contains("NAMESPACE\nns1\n1 row(s)\nTook"), out);
    assertTrue(out.contains("DESCRIPTION\n{NAME => 'ns1'}\nQuota is disabled\nTook"), out);
  }

  @Test
  void namespaceCommandsAnEmbeddedDatabaseCannotDoAreOneErrorEach() throws IOException {
    CliRun run =
        run(
            "embedded",
            """
        create 'ns1:t1', 'f'
        create_namespace 'ns2'
        create_namespace 'ns1'
        drop_namespace 'ns1'
        drop_namespace 'default'
        drop_namespace 'ns3'
        describe_namespace 'ns3'
        list_namespace '('
        get_counter 'ns1:t1', 'r', 'f'
        help 'frobnicate'
        """);
    String out = run.out();
    assertEquals(1, run.exit(), run.toString());
    assertEquals(9, count(out, "ERROR: "), out);
    assertTrue(
        out.contains(
            "ERROR: create_namespace: an embedded database keeps no namespaces apart from its"
                + " tables; create a table in the namespace instead, e.g. create 'ns2:t1', 'f'\n"),
        out);
    assertTrue(out.contains("ERROR: create_namespace: namespace ns1 already exists\n"), out);
    assertTrue(
        out.contains(
            "ERROR: drop_namespace: only empty namespaces can be removed; namespace ns1 has 1"
                + " tables: ns1:t1\n"),
        out);
    assertTrue(out.contains("ERROR: drop_namespace: reserved namespace default"), out);
    assertEquals(2, count(out, "ERROR: Unknown namespace ns3!\n"), out);
    assertTrue(out.contains("ERROR: list_namespace: '(' is not a regular expression"), out);
    assertTrue(out.contains("ERROR: get_counter: give the column as family:qualifier"), out);
    assertTrue(out.contains("ERROR: help: no command named 'frobnicate'"), out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void filtersOfHBasesLanguageRunEmbeddedAndOnAServer(String mode) throws IOException {
    CliRun run =
        run(
            mode,
            DATA
                + """
        scan 't', {FILTER => "KeyOnlyFilter()"}
        get 't', 'r2', {FILTER => "KeyOnlyFilter(true)"}
        scan 't', {FILTER => "FirstKeyOnlyFilter()"}
        scan 't', {FILTER => "WHILE RowFilter(<, 'binary:r2')"}
        scan 't', {FILTER => "ColumnPaginationFilter(1, 1)"}
        scan 't', {FILTER => "SKIP ValueFilter(!=, 'binary:two')"}
        scan 't', {FILTER => "ValueFilter(=, 'regexstring:^t') AND TimestampsFilter(30)"}
        scan 't', {FILTER => "MultipleColumnPrefixFilter('b', 'x')"}
        """);
    String out = run.out();
    assertEquals(0, run.exit(), run.toString());
    String[] reads = out.split("(?m)^ (ROW|COLUMN) +(COLUMN\\+)?CELL$");
    assertEquals(9, reads.length, out);
    assertLine(reads[1], "r1", "column=f:a, timestamp=1970-01-01T00:00:00.010Z, value=");
    assertLine(reads[1], "r1", "column=g:b, timestamp=1970-01-01T00:00:00.002Z, value=");
    assertEquals(4, count(reads[1], "value=\n"), "every cell, no value: " + reads[1]);
    assertLine(reads[2], "f:a", "timestamp=1970-01-01T00:00:00.020Z, value=\\x00\\x00\\x00\\x03");
    assertEquals(0, count(reads[3], "column=g:b"), "r1's first cell only: " + reads[3]);
    assertEquals(3, count(reads[3], "column=f:a"), "each row's first cell: " + reads[3]);
    assertTrue(reads[4].contains("2 row(s)") && !reads[4].contains(" r2 "), "to r2: " + reads[4]);
    assertTrue(reads[5].contains("column=g:b, ") && reads[5].contains("1 row(s)"), reads[5]);
    assertTrue(reads[6].contains("2 row(s)") && !reads[6].contains(" r2 "), "no r2: " + reads[6]);
    assertTrue(reads[7].contains("value=three") && reads[7].contains("1 row(s)"), reads[7]);
    assertTrue(reads[8].contains("column=g:b, ") && reads[8].contains("1 row(s)"), reads[8]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void alterAddsModifiesAndDeletesFamiliesWithHBaseSyntax(String mode) throws IOException {
    CliRun run =
        run(
            mode,
            DATA
                + """
        alter 't', NAME => 'f', VERSIONS => 5
        alter 't', NAME => 'h', BLOCKSIZE => 8192
        alter 't', {NAME => 'g', COMPRESSION => 'GZ'}, 'k'
        put 't', 'r1', 'h:x', 'in h'
        describe 't'
        alter 't', 'delete' => 'k'
        alter 't', METHOD => 'delete', NAME => 'h'
        describe 't'
        get 't', 'r1'
        """);
    assertEquals(0, run.exit(), run.toString());
    String out = run.out();
    assertEquals(
        5,
        count(
            out,
            "Updating all regions with the new schema...\n1/1 regions" + " updated.\nDone.\nTook"),
        out);
    String[] describes = out.split("COLUMN FAMILIES DESCRIPTION");
    assertEquals(3, describes.length, out);
    String altered = describes[1];
    assertTrue(
        altered.contains(
            "{NAME => 'f', BLOCKSIZE => '65536', BLOOMFILTER => 'ROW', "
                + "DATA_BLOCK_ENCODING => 'NONE', COMPRESSION => 'NONE', IN_MEMORY => 'false', "
                + "BLOCKCACHE => 'true', VERSIONS => '5'"),
        altered);
    assertTrue(
        altered.contains(
            "{NAME => 'g', BLOCKSIZE => '65536', BLOOMFILTER => 'ROW', "
                + "DATA_BLOCK_ENCODING => 'NONE', COMPRESSION => 'GZ', IN_MEMORY => 'false', "
                + "BLOCKCACHE => 'true', VERSIONS => '3'"),
        "g keeps VERSIONS 3: " + altered);
    assertTrue(altered.contains("{NAME => 'h', BLOCKSIZE => '8192'"), altered);
    assertTrue(altered.contains("{NAME => 'k', "), altered);
    String after = describes[2];
    assertTrue(after.contains("{NAME => 'f'") && after.contains("{NAME => 'g'"), after);
    assertFalse(after.contains("{NAME => 'h'") || after.contains("{NAME => 'k'"), after);
    assertTrue(after.contains("value=v2"), "g's data stays: " + after);
    assertFalse(after.contains("in h"), "h's data went with h: " + after);
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void mistakesAreOneErrorLineEachAndTheScriptGoesOn(String mode) throws IOException {
    CliRun run =
        run(
            mode,
            """
        create 't', 'f'
        put 't', 'r'
        get 'missing', 'r'
        scan 't', {LIMT => 3}
        scan 't', {FILTER => "NoSuchFilter('x')"}
        put 't', 'r', 'nofamily:q', 'v'
        frobnicate 't'
        get 't', 'r
        alter 't', 'delete' => 'f'
        alter 't', {NAME => 'f', COLOUR => 'red'}
        put 't', 'r', 'f:q', 'fine'
        get 't', 'r'
        """);
    assertEquals(1, run.exit(), run.toString());
    String out = run.out();
    assertEquals(9, count(out, "ERROR: "), out);
    assertTrue(out.contains("ERROR: put: missing the column (argument 3)"), out);
    assertTrue(out.contains("ERROR: no table named missing"), out);
    assertTrue(out.contains("ERROR: scan: unknown option LIMT"), out);
    assertTrue(
        out.contains("ERROR: filter NoSuchFilter is not one of HBase's filter language"), out);
    assertTrue(out.contains("ERROR: unknown command 'frobnicate'"), out);
    assertTrue(out.contains("ERROR: syntax error at column 12: expected the closing '"), out);
    assertTrue(
        out.contains("family f is the only family of table t; a table needs at least" + " one"),
        out);
    assertTrue(out.contains("ERROR: family f: unknown attribute COLOUR"), out);
    assertTrue(out.contains("value=fine"), out);
    for (String line : out.split("\n")) {
      assertTrue(!line.startsWith("\tat "), "no stack traces: " + out);
    }
  }

  @Test
  void aDatabaseOrAServerIsRequired() {
    CliRun neither = shell("list\n");
    assertEquals(2, neither.exit(), neither.toString());
    assertTrue(
        neither
            .err()
            .contains("give a database directory (DIR or --dir DIR) or --connect" + " HOST:PORT"),
        neither.toString());
    CliRun bad = shell("list\n", "--connect", "nohost");
    assertEquals(1, bad.exit(), bad.toString());
    assertTrue(
        bad.err()
            .contains(
                "cellar shell: cannot open nohost: server address 'nohost'" + " is not host:port"),
        bad.toString());
  }

  @Test
  void aDirectoryWithoutADatabaseIsRefusedUnlessCreateIsGiven() {
    Path typo = dir.resolve("typo-db");
    CliRun refused = shell("create 't', 'f'\n", typo.toString());
    assertEquals(1, refused.exit(), refused.toString());
    assertEquals(
        "cellar shell: "
            + typo
            + " is not a Cellar database (no tables/ directory);"
            + " give --create to make a new one\n",
        refused.err(),
        refused.toString());
    assertFalse(Files.exists(typo), "nothing is created: " + refused);

    CliRun created = shell("create 't', 'f'\n", "--create", typo.toString());
    assertEquals(0, created.exit(), created.toString());
    assertTrue(created.out().contains("Created table t"), created.toString());
    assertTrue(Files.isDirectory(typo.resolve("tables")), created.toString());

    CliRun reopened = shell("list\n", typo.toString());
    assertEquals(0, reopened.exit(), reopened.toString());
    assertTrue(reopened.out().contains("TABLE\nt\n1 row(s)"), reopened.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "server"})
  void createPreSplitsWithKeysAFileOrAnAlgorithm(String mode, @TempDir Path files)
      throws IOException {
    Path splits = Files.writeString(files.resolve("splits.txt"), "c\n\n  k \nq\n");
    CliRun run =
        run(
            mode,
            "create 't1', 'f', SPLITS => ['m', 'b']\n"
                + "create 't2', 'f', SPLITS_FILE => '"
                + splits
                + "'\n"
                + "create 't3', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}\n"
                + "put 't1', 'z', 'f:a', 'last region'\n"
                + "get 't1', 'z'\n"
                + "create 't4', 'f', NUMREGIONS => 4\n");
    assertTrue(run.out().contains("last region"), run.out());
    assertTrue(run.out().contains("ERROR: create: NUMREGIONS needs SPLITALGO"), run.out());
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      assertEquals(
          List.of("", "b", "m"), startKeys(cellar.admin().regions("t1")), "SPLITS, sorted");
      assertEquals(List.of("", "c", "k", "q"), startKeys(cellar.admin().regions("t2")));
      List<String> hex = new ArrayList<>(List.of(""));
      for (byte[] key : SplitAlgorithm.HEX_STRING.split(4)) {
        hex.add(new String(key, StandardCharsets.UTF_8));
      }
      assertEquals(hex, startKeys(cellar.admin().regions("t3")));
      assertFalse(cellar.admin().tableExists("t4"));
    }
  }

  private static List<String> startKeys(List<RegionInfo> regions) {
    return regions.stream().map(r -> new String(r.startKey(), StandardCharsets.UTF_8)).toList();
  }

  @Test
  void createIsForADirectoryOnly() {
    CliRun run = shell("list\n", "--create", "--connect", "localhost:16020");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--create is for a database directory"), run.toString());
  }
}
