package dev.cellar.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every Cellar microbenchmark shares: one fork, a short warmup and measurement that
 * keep the whole suite within a few minutes, and the same JVM flags for Cellar and its peers.
 *
 * <p><b>JVM flags.</b> {@code jvmArgs} replaces the launching JVM's flags, so a run does not depend
 * on how JMH was started:
 *
 * <ul>
 *   <li>{@code --enable-native-access=ALL-UNNAMED}, as the {@code cellar} launcher passes;
 *   <li>{@code --sun-misc-unsafe-memory-access=allow}: Netty 4.2 turns its {@code Unsafe} paths off
 *       on Java 25+ unless this is given, and HBase's shaded Netty warns without it; the peers run
 *       at their fastest;
 *   <li>{@code --add-opens java.base/java.nio=ALL-UNNAMED}: HBase's ByteBuff needs it for its
 *       unaligned {@code Unsafe} access, as HBase's own launch scripts open it;
 *   <li>a fixed 1 GiB heap, so that heap resizing does not add noise.
 * </ul>
 *
 * <p><b>Leak detection</b> is off for every library ({@code jvmArgsAppend}), so the runs compare
 * the allocators and buffers themselves. Production runs Cellar at SIMPLE (one pooled allocation in
 * 128 tracked, as in Netty); to measure that, replace the appended flags on the command line:
 *
 * <pre>{@code
 * -jvmArgsAppend "-Dcellar.leakDetection.level=SIMPLE -Dio.netty.leakDetection.level=SIMPLE
 *     -Dorg.apache.hbase.thirdparty.io.netty.leakDetection.level=SIMPLE"
 * }</pre>
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
      "-Dorg.apache.hbase.thirdparty.io.netty.leakDetection.level=DISABLED"
    })
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class BenchmarkBase {}
