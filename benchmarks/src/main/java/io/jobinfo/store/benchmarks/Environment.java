package io.jobinfo.store.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** One line about the machine and JVM the figures came from. */
final class Environment {

    private Environment() {
    }

    static String describe() {
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux
        }
        Runtime rt = Runtime.getRuntime();
        return String.format(Locale.ROOT, "%s, %d cores, %.0f GiB max heap; %s %s; %s %s", cpu,
                rt.availableProcessors(), rt.maxMemory() / (1024.0 * 1024 * 1024), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("os.name"),
                System.getProperty("os.version"));
    }
}
