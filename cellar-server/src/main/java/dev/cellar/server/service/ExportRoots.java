package dev.cellar.server.service;

import dev.cellar.server.rpc.RpcException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a client may have the server write an export ({@value #KEY}): a comma-separated list of
 * directories (local paths) or URIs (e.g. {@code hdfs://namenode:8020/exports}) under which the
 * output must lie. None by default: exporting through the server is off until an operator names
 * where it may write, so that no client makes the server write files as its own user wherever it
 * likes, learn which paths exist, or reach a host of its choosing. A refused output is refused
 * before anything is read or written. Immutable.
 */
final class ExportRoots {

  /** The key naming the directories and URIs exports may be written under. */
  static final String KEY = "cellar.server.export.dirs";

  private final List<String> roots;

  private ExportRoots(List<String> roots) {
    this.roots = List.copyOf(roots);
  }

  /** The roots {@code value} names (null or blank: none). */
  static ExportRoots of(String value) {
    List<String> roots = new ArrayList<>();
    if (value != null) {
      for (String root : value.split(",")) {
        if (!root.isBlank()) {
          roots.add(normalized(root.strip()));
        }
      }
    }
    return new ExportRoots(roots);
  }

  /**
   * Refuses {@code out} unless it lies strictly under one of the roots.
   *
   * @throws RpcException DoNotRetry naming the key, without saying anything of what exists there
   */
  void check(String out) throws RpcException {
    if (roots.isEmpty()) {
      throw RpcException.doNotRetry(
          "export through the server is off: set "
              + KEY
              + " on the server to the directories (or URIs) it may write exports under");
    }
    String candidate;
    try {
      candidate = normalized(out);
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry("export: " + out + " is not a path or a URI");
    }
    for (String root : roots) {
      String prefix = root.endsWith("/") ? root : root + "/";
      if (candidate.startsWith(prefix) && candidate.length() > prefix.length()) {
        return;
      }
    }
    throw RpcException.doNotRetry(
        "export: " + out + " is not under a directory this server exports to (" + KEY + ")");
  }

  /**
   * {@code location} with {@code .} and {@code ..} resolved: a URI with a scheme as a URI, else a
   * local path made absolute.
   */
  private static String normalized(String location) {
    try {
      URI uri = new URI(location);
      if (uri.getScheme() != null && uri.getScheme().length() > 1) {
        return uri.normalize().toString();
      }
    } catch (URISyntaxException e) {
      // a local path need not be a URI (spaces); read it as a path
    }
    return Path.of(location).toAbsolutePath().normalize().toString();
  }
}
