package dev.cellar.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every Cellar microbenchmark shares: one fork, a short warmup and measurement so that
 * the whole suite stays quick to run on a small machine, and the same JVM flags for Cellar and its
 * peers.
 *
 * <p><b>JVM flags.</b> {@code jvmArgs} replaces the launching JVM's flags, so a run does not depend
 * on how JMH was started:
 *
 * <ul>
 *   <li>{@code --enable-native-access=ALL-UNNAMED}, as the {@code cellar} launcher passes;
 *   <li>{@code --sun-misc-unsafe-memory-access=allow}: Netty 4.2 turns its {@code Unsafe} paths off
 *       on Java 25+ unless this is given, and HBase's shaded Netty warns without it; the peers run
 *       at their fastest;
 *   <li>{@code --add-opens java.base/java.nio=ALL-UNNAMED}: without it HBase's ByteBuff logs a
 *       stack trace and gives up its unaligned {@code Unsafe} access;
 *   <li>a fixed 1 GiB heap, so that heap resizing does not add noise.
 * </ul>
 *
 * <p><b>Leak detection</b> is off for every library ({@code jvmArgsAppend}), so the runs compare
 * the allocators and buffers themselves. Production runs at SIMPLE, the default of Cellar, Netty
 * and HBase's shaded Netty alike (one pooled allocation in 128 tracked). To measure that, replace
 * the appended flags on the command line with {@code -jvmArgsAppend
 * -Dcellar.leakDetection.level=SIMPLE}, which leaves every library at SIMPLE.
 *
 * <p><b>Logging.</b> HBase and Hadoop log every codec, decompressor and metrics registration at
 * INFO and warn once that Hadoop's native library is absent (no benchmark uses it), which would
 * interleave with JMH's output: their loggers are kept at WARN, and that warning off.
 *
 * <p>Always add {@code -prof gc}: its {@code gc.alloc.rate.norm} is the heap bytes allocated per
 * operation, which the read path is required to keep at zero.
 */
@Fork(
    value = 1,
    jvmArgs = {
      "--enable-native-access=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "-Xms1g",
      "-Xmx1g"
    },
    jvmArgsAppend = {
      "-Dcellar.leakDetection.level=DISABLED",
      "-Dio.netty.leakDetection.level=DISABLED",
      "-Dorg.apache.hbase.thirdparty.io.netty.leakDetection.level=DISABLED",
      "-Dorg.slf4j.simpleLogger.log.org.apache.hadoop=warn",
      "-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader=error"
    })
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class BenchmarkBase {}
