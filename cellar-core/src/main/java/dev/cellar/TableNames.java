package dev.cellar;

/**
 * HBase's rules for table names, which also keep every name a safe directory name under {@code
 * tables/}: an optional namespace and a qualifier, {@code namespace:qualifier}. A namespace is
 * ASCII letters, digits and '_'; a qualifier is ASCII letters, digits, '_', '-' and '.', and does
 * not start with '.' or '-' (so "." and ".." are never names). The {@value #DEFAULT_NAMESPACE}
 * namespace is the one a bare qualifier is in, so {@code default:t} is {@code t}; the {@value
 * #SYSTEM_NAMESPACE} namespace is HBase's system namespace and is refused. Stateless.
 */
final class TableNames {

  static final String DEFAULT_NAMESPACE = "default";
  static final String SYSTEM_NAMESPACE = "hbase";

  /** The longest name: a directory name must fit in 255 bytes on common file systems. */
  static final int MAX_LENGTH = 255;

  private TableNames() {}

  /**
   * {@code name} checked and without the default namespace.
   *
   * @throws IllegalArgumentException naming the rule {@code name} breaks
   */
  static String checked(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(
          "a table name is required, was " + (name == null ? "null" : "empty"));
    }
    if (name.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "table name '"
              + name.substring(0, 40)
              + "...' is "
              + name.length()
              + " characters long; at most "
              + MAX_LENGTH
              + " are allowed");
    }
    int colon = name.indexOf(':');
    if (colon < 0) {
      checkQualifier(name, name);
      return name;
    }
    String namespace = name.substring(0, colon);
    String qualifier = name.substring(colon + 1);
    checkNamespace(name, namespace);
    checkQualifier(name, qualifier);
    return namespace.equals(DEFAULT_NAMESPACE) ? qualifier : name;
  }

  /**
   * The key a table named {@code name} is registered under: {@code name} without the default
   * namespace, unchecked (a name no table can have simply finds none).
   */
  static String lookupKey(String name) {
    return name != null && name.startsWith(DEFAULT_NAMESPACE + ":")
        ? name.substring(DEFAULT_NAMESPACE.length() + 1)
        : name;
  }

  private static void checkNamespace(String name, String namespace) {
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException("table name '" + name + "' has an empty namespace");
    }
    for (int i = 0; i < namespace.length(); i++) {
      char c = namespace.charAt(i);
      if (!isAsciiLetterOrDigit(c) && c != '_') {
        throw new IllegalArgumentException(
            "table name '"
                + name
                + "': namespace '"
                + namespace
                + "' has '"
                + c
                + "' at "
                + i
                + "; a namespace is letters, digits and '_'");
      }
    }
    if (namespace.equals(SYSTEM_NAMESPACE)) {
      throw new IllegalArgumentException(
          "table name '"
              + name
              + "': namespace '"
              + SYSTEM_NAMESPACE
              + "' is reserved for system tables");
    }
  }

  private static void checkQualifier(String name, String qualifier) {
    if (qualifier.isEmpty()) {
      throw new IllegalArgumentException("table name '" + name + "' has an empty qualifier");
    }
    char first = qualifier.charAt(0);
    if (first == '.' || first == '-') {
      throw new IllegalArgumentException(
          "table name '"
              + name
              + "' starts its qualifier with '"
              + first
              + "'; a qualifier starts with a letter, a digit or '_'");
    }
    for (int i = 0; i < qualifier.length(); i++) {
      char c = qualifier.charAt(i);
      if (!isAsciiLetterOrDigit(c) && c != '_' && c != '-' && c != '.') {
        throw new IllegalArgumentException(
            "table name '"
                + name
                + "' has '"
                + c
                + "' at "
                + (name.length() - qualifier.length() + i)
                + "; a qualifier is letters, digits, '_', '-' and '.'");
      }
    }
  }

  private static boolean isAsciiLetterOrDigit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
