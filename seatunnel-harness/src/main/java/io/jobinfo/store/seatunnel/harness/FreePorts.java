package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks TCP ports free on the loopback interface at the time of the call (other clusters may run here), outside the
 * kernel's ephemeral range.
 *
 * <p>A member listens on its port minutes after the port is picked (the spare member of a test class, a member
 * restarted after a kill), and every outgoing connection meanwhile (the client's, the members' to each other, REST
 * calls) takes its local port from the ephemeral range: a port picked there ({@code new ServerSocket(0)}) was once
 * taken by such a connection before the spare member bound it, and that member could not start ("Port [41687] is
 * already in use"). Below the range, only listeners take ports.
 */
final class FreePorts {

    /** The lowest port picked. */
    static final int LOWEST = 20_000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private FreePorts() {}

    /**
     * Returns {@code count} distinct ports that were free a moment ago, outside the ephemeral range: from
     * {@link #LOWEST} up to just below it, or above it where too few ports are below; starting at a random one (so
     * that clusters picking at once rarely try the same ports).
     *
     * @throws UncheckedIOException if too few ports outside the ephemeral range are free
     */
    static int[] pick(int count) {
        int[] range = ephemeralRange();
        int from = LOWEST;
        int to = range[0]; // exclusive
        if (to - from < count * 10) {
            from = range[1] + 1;
            to = 65_536;
        }
        int span = to - from;
        Set<Integer> seen = new HashSet<>();
        int[] ports = new int[count];
        int found = 0;
        int start = span > 0 ? ThreadLocalRandom.current().nextInt(span) : 0;
        for (int i = 0; i < span && found < count; i++) {
            int port = from + (start + i) % span;
            if (seen.add(port) && bindable(port)) {
                ports[found++] = port;
            }
        }
        if (found < count) {
            throw new UncheckedIOException(new IOException("only " + found + " free ports outside the ephemeral range "
                    + range[0] + "-" + range[1] + " (from " + from + " to " + (to - 1) + "), " + count + " needed"));
        }
        return ports;
    }

    /** The kernel's ephemeral range (Linux), or its default 32768-60999 where it cannot be read. */
    static int[] ephemeralRange() {
        try {
            String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            return new int[] {Integer.parseInt(range[0]), Integer.parseInt(range[1])};
        } catch (IOException | RuntimeException unreadable) {
            return new int[] {32_768, 60_999};
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
