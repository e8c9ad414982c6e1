#!/usr/bin/env bash
# Runs Apache HBase 2.6.1's own PerformanceEvaluation (hbase-mapreduce's tests jar, --nomapred)
# against 'cellar serve', or against an Apache HBase 2.6.1 standalone server for comparison.
#
#   scripts/hbase-pe.sh cellar HOST:PORT PE-ARGS...   # PE against cellar serve at HOST:PORT
#   scripts/hbase-pe.sh hbase PE-ARGS...              # PE against HBase standalone (ZooKeeper on localhost:2181)
#   scripts/hbase-pe.sh standalone DIR                # start HBase 2.6.1 standalone with its data in DIR
#
# Example, side by side (one at a time: both listen on 16020):
#   ./cellar serve --dir /tmp/cellar-pe &
#   scripts/hbase-pe.sh cellar 127.0.0.1:16020 --nomapred --rows=1000000 sequentialWrite 1
#   scripts/hbase-pe.sh cellar 127.0.0.1:16020 --nomapred --rows=500000 randomRead 2
#
# HBase's jars come from Maven Central (scripts/hbase-peer/pom.xml, every transitive dependency) on
# the first run. HBase 2.6.1 and its Hadoop 3.3 jars run on a JDK 17 ($PE_JAVA, default: the first
# JDK 17 under /usr/lib/jvm, else 'java' on PATH); the PE client runs on the same JVM for both peers.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
peer="$root/scripts/hbase-peer"
. "$root/scripts/find-jdk.sh"

if [ $# -lt 1 ]; then
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi

java17=${PE_JAVA:-}
if [ -z "$java17" ]; then
  for candidate in /usr/lib/jvm/*17*/bin/java; do
    [ -x "$candidate" ] && java17=$candidate && break
  done
fi
java17=${java17:-java}

classpath_file="$peer/target/classpath"
if [ ! -s "$classpath_file" ] || [ "$peer/pom.xml" -nt "$classpath_file" ]; then
  cellar_find_jdk
  cellar_require_maven
  echo "hbase-pe: resolving Apache HBase 2.6.1's jars (first run)..." >&2
  (cd "$peer" && mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath >&2)
fi
classpath=$(cat "$classpath_file")
opens="--add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED"

mode=$1
shift
case "$mode" in
  cellar)
    [ $# -ge 1 ] || { echo "hbase-pe: cellar needs HOST:PORT" >&2; exit 2; }
    server=$1
    shift
    conf=$(mktemp -d)
    trap 'rm -rf "$conf"' EXIT
    cp "$peer/conf/log4j.properties" "$conf/"
    cat > "$conf/hbase-site.xml" <<XML
<configuration>
  <property><name>hbase.client.registry.impl</name><value>org.apache.hadoop.hbase.client.RpcConnectionRegistry</value></property>
  <property><name>hbase.client.bootstrap.servers</name><value>$server</value></property>
</configuration>
XML
    exec "$java17" $opens -cp "$conf:$classpath" org.apache.hadoop.hbase.PerformanceEvaluation "$@"
    ;;
  hbase)
    exec "$java17" $opens -cp "$peer/conf:$classpath" org.apache.hadoop.hbase.PerformanceEvaluation "$@"
    ;;
  standalone)
    [ $# -eq 1 ] || { echo "hbase-pe: standalone needs a data directory" >&2; exit 2; }
    data=$(mkdir -p "$1" && cd "$1" && pwd)
    conf=$(mktemp -d)
    cp "$peer/conf/log4j.properties" "$conf/"
    cat > "$conf/hbase-site.xml" <<XML
<configuration>
  <property><name>hbase.cluster.distributed</name><value>false</value></property>
  <property><name>hbase.rootdir</name><value>file://$data/root</value></property>
  <property><name>hbase.zookeeper.property.dataDir</name><value>$data/zk</value></property>
  <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
  <property><name>hbase.master.info.port</name><value>-1</value></property>
  <property><name>hbase.regionserver.info.port</name><value>-1</value></property>
</configuration>
XML
    exec "$java17" $opens -Xmx${HBASE_HEAP:-4g} -cp "$conf:$classpath" org.apache.hadoop.hbase.master.HMaster start
    ;;
  *)
    echo "hbase-pe: unknown mode '$mode' (cellar, hbase or standalone)" >&2
    exit 2
    ;;
esac
