package dev.cellar.cli.experiments.report;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The machine an experiment ran on, as a report states it: cores the JVM sees, physical memory, the
 * JDK and the operating system.
 *
 * @param memoryBytes physical memory, or -1 when the JVM cannot tell
 */
public record Machine(int cores, long memoryBytes, String jdk, String os) {

  /** The machine this JVM runs on. */
  public static Machine current() {
    OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
    long memory =
        bean instanceof com.sun.management.OperatingSystemMXBean sun
            ? sun.getTotalMemorySize()
            : -1;
    String jdk =
        System.getProperty("java.vm.vendor")
            + " "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version");
    String os =
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " ("
            + System.getProperty("os.arch")
            + ")";
    return new Machine(Runtime.getRuntime().availableProcessors(), memory, jdk, os);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("cores", cores);
    json.put("memoryBytes", memoryBytes);
    json.put("jdk", jdk);
    json.put("os", os);
    return json;
  }
}
