package dev.cellar.server.service;

import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors;

/**
 * The methods of one of HBase's services that Cellar does not serve, each with the message a client
 * gets for it: a {@code DoNotRetryIOException} naming the call and the feature it belongs to and
 * saying Cellar does not support it, so that HBase's client fails at once with a reason instead of
 * "unknown method". The methods come from HBase's own service descriptor, so every call HBase
 * 2.6.1's client can make is either served or refused by name. Stateless.
 */
final class UnservedMethods {

  /** Words in a method's name and the feature they stand for, first match wins. */
  private static final List<Map.Entry<String, String>> FEATURES =
      List.of(
          Map.entry("quota", "quotas"),
          Map.entry("snapshot", "snapshots"),
          Map.entry("replication", "replication"),
          Map.entry("peer", "replication"),
          Map.entry("replay", "region replicas"),
          Map.entry("slowlog", "slow and large request logs"),
          Map.entry("largelog", "slow and large request logs"),
          Map.entry("logentries", "slow and large request logs"),
          Map.entry("storefiletracker", "store file trackers"),
          Map.entry("storefile", "store file administration"),
          Map.entry("compaction", "compaction administration"),
          Map.entry("serverinfo", "server information"),
          Map.entry("favorednodes", "favored nodes"),
          Map.entry("configuration", "configuration reload"),
          Map.entry("bystate", "listing tables by state"),
          Map.entry("maintenance", "maintenance mode"),
          Map.entry("catalogscan", "the catalog janitor"),
          Map.entry("deadservers", "dead servers"),
          Map.entry("rpcthrottle", "RPC throttling"),
          Map.entry("masterstore", "the master's local store"),
          Map.entry("rsgroup", "region server groups"),
          Map.entry("balanc", "the balancer"),
          Map.entry("normaliz", "the region normalizer"),
          Map.entry("catalogjanitor", "the catalog janitor"),
          Map.entry("cleanerchore", "the cleaner chore"),
          Map.entry("split", "region splits"),
          Map.entry("merge", "region merges"),
          Map.entry("procedure", "procedures"),
          Map.entry("lock", "procedures"),
          Map.entry("coprocessor", "coprocessors"),
          Map.entry("execservice", "coprocessors"),
          Map.entry("bulkload", "bulk loads into a running server"),
          Map.entry("security", "security"),
          Map.entry("permission", "security"),
          Map.entry("grant", "security"),
          Map.entry("revoke", "security"),
          Map.entry("user", "security"),
          Map.entry("decommission", "decommissioning"),
          Map.entry("recommission", "decommissioning"),
          Map.entry("shutdown", "stopping the server through the protocol"),
          Map.entry("stop", "stopping the server through the protocol"),
          Map.entry("region", "region administration"),
          Map.entry("wal", "write-ahead log administration"),
          Map.entry("cache", "block cache administration"));

  private UnservedMethods() {}

  /** The service {@code name} of {@code methods}, refusing by name the rest of {@code hbase}'s. */
  static RpcService service(
      String name, Descriptors.ServiceDescriptor hbase, List<RpcMethod<?>> methods) {
    return new RpcService(name, methods, of(name, hbase, methods));
  }

  /**
   * The refusals of {@code hbase}'s methods that {@code served} lacks, by method name.
   *
   * @param service the service's name as clients send it
   */
  static Map<String, String> of(
      String service, Descriptors.ServiceDescriptor hbase, List<RpcMethod<?>> served) {
    Set<String> names = new HashSet<>();
    served.forEach(method -> names.add(method.name()));
    Map<String, String> refusals = new LinkedHashMap<>();
    for (Descriptors.MethodDescriptor method : hbase.getMethods()) {
      if (!names.contains(method.getName())) {
        refusals.put(
            method.getName(),
            service
                + "."
                + method.getName()
                + " ("
                + feature(method.getName())
                + ") is not supported by Cellar");
      }
    }
    return refusals;
  }

  /** The feature HBase's method {@code method} belongs to, as the refusal names it. */
  static String feature(String method) {
    String lower = method.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, String> feature : FEATURES) {
      if (lower.contains(feature.getKey())) {
        return feature.getValue();
      }
    }
    return "this call";
  }
}
