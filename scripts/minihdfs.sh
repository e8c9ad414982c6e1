#!/usr/bin/env bash
# Starts an in-process HDFS (a MiniDFSCluster from hadoop-client-minicluster: one NameNode and
# N DataNodes, all on 127.0.0.1) and prints its hdfs:// URI; Ctrl-C stops it and deletes its data.
# Usage: scripts/minihdfs.sh [DATANODES]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/find-jdk.sh"
cellar_find_jdk
cellar_require_maven
cd "$root"
classpath="$root/cellar-hdfs/target/minihdfs.classpath"
mvn -B -q -Dstyle.color=never -DskipTests install -pl cellar-core,cellar-hdfs >&2
mvn -B -q -Dstyle.color=never -pl cellar-hdfs dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$classpath" >&2
exec "$JAVA_HOME/bin/java" -Xmx1g --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
  -cp "$root/cellar-hdfs/target/test-classes:$root/cellar-hdfs/target/classes:$(cat "$classpath")" \
  dev.cellar.hdfs.MiniHdfsMain "${1:-1}"
