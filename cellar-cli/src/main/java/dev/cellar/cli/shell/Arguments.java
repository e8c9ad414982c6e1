package dev.cellar.cli.shell;

import java.util.List;
import java.util.Map;

/** A command's arguments, read by position, with the command's name in any mistake. */
record Arguments(String command, List<Object> values) {

  int size() {
    return values.size();
  }

  Object get(int index) {
    return values.get(index);
  }

  String string(int index, String what) {
    if (index >= values.size()) {
      throw new ShellException(
          command + ": missing the " + what + " (argument " + (index + 1) + ")");
    }
    Object value = values.get(index);
    if (value instanceof Map<?, ?> || value instanceof List<?>) {
      throw new ShellException(
          command + ": the " + what + " (argument " + (index + 1) + ") should be a string");
    }
    return String.valueOf(value);
  }

  byte[] bytes(int index, String what) {
    return ShellBytes.of(string(index, what));
  }

  long number(int index, String what) {
    Object value = index < values.size() ? values.get(index) : null;
    if (value instanceof Long number) {
      return number;
    }
    try {
      return Long.parseLong(string(index, what));
    } catch (NumberFormatException e) {
      throw new ShellException(
          command
              + ": the "
              + what
              + " (argument "
              + (index + 1)
              + ") should be a number, was '"
              + value
              + "'");
    }
  }
}
