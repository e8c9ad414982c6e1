package dev.cellar.tools.guide;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line into words as a POSIX shell does for the forms the guide uses: blanks
 * separate words, single quotes keep everything, double quotes keep everything but a backslash
 * before {@code "} or {@code \}, and an unquoted backslash keeps the next character.
 */
final class ShellWords {

  private ShellWords() {}

  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else if (c == '\\' && i + 1 < line.length() && "\"\\".indexOf(line.charAt(i + 1)) >= 0) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        inWord = true;
        if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '\\' && i + 1 < line.length()) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("unclosed quote in: " + line);
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}
