package dev.cellar.cli.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shell's line syntax, its byte escapes and HBase's filter language. */
class ShellParserTest {

  @Test
  void readsStringsNumbersArraysAndHashes() {
    ShellParser.Line line =
        ShellParser.parse(
            "scan 't', {COLUMNS => ['f:a', \"g\"], LIMIT => 10, REVERSED => true}  # a comment");
    assertEquals("scan", line.command());
    assertEquals(
        List.of("t", Map.of("COLUMNS", List.of("f:a", "g"), "LIMIT", 10L, "REVERSED", true)),
        line.arguments());
    assertEquals(List.of("t", 5L), ShellParser.parse("get('t', 5)").arguments());
    assertEquals(List.of(), ShellParser.parse("list").arguments());
    assertNull(ShellParser.parse("   "));
    assertNull(ShellParser.parse("# only a comment"));
  }

  @Test
  void pairsEndingTheLineAreOneHashWithoutBraces() {
    assertEquals(
        List.of("t", Map.of("NAME", "f", "VERSIONS", 5L)),
        ShellParser.parse("alter 't', NAME => 'f', VERSIONS => 5").arguments());
    assertEquals(
        List.of("t", Map.of("delete", "f")),
        ShellParser.parse("alter 't', 'delete' => 'f'").arguments());
    ShellException mixed =
        assertThrows(ShellException.class, () -> ShellParser.parse("alter 't', NAME => 'f', 'g'"));
    assertTrue(mixed.getMessage().contains("must be pairs too"), mixed.getMessage());
  }

  @Test
  void doubleQuotedEscapesAreBytes() {
    String row = (String) ShellParser.parse("get 't', \"a\\x00\\xff\\n\"").arguments().get(1);
    assertArrayEquals(new byte[] {'a', 0, (byte) 0xff, '\n'}, ShellBytes.of(row));
    assertEquals("a\\x00\\xFF\\x0A", ShellBytes.show(ShellBytes.of(row)));
    String single = (String) ShellParser.parse("get 't', 'a\\x00'").arguments().get(1);
    assertArrayEquals("a\\x00".getBytes(), ShellBytes.of(single));
    assertArrayEquals(
        "é".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        ShellBytes.of((String) ShellParser.parse("get 't', 'é'").arguments().get(1)));
  }

  @Test
  void mistakesNameTheColumn() {
    ShellException unclosed =
        assertThrows(ShellException.class, () -> ShellParser.parse("get 't', {LIMIT => 3"));
    assertTrue(unclosed.getMessage().contains("column 21: expected '}'"), unclosed.getMessage());
    ShellException arrow =
        assertThrows(ShellException.class, () -> ShellParser.parse("scan 't', {LIMIT 3}"));
    assertTrue(arrow.getMessage().contains("expected '=>'"), arrow.getMessage());
    assertThrows(ShellException.class, () -> ShellParser.parse("get 't' 'r'"));
  }
}
