package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Picks TCP ports free on the loopback interface at the time of the call (other clusters may run here). */
final class FreePorts {

    private FreePorts() {}

    /**
     * Returns {@code count} distinct ports that were free a moment ago.
     *
     * @throws UncheckedIOException if no socket can be opened on 127.0.0.1
     */
    static int[] pick(int count) {
        Set<Integer> seen = new HashSet<>();
        int[] ports = new int[count];
        int found = 0;
        while (found < count) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
                int port = socket.getLocalPort();
                if (seen.add(port)) {
                    ports[found++] = port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open a socket on 127.0.0.1 to find a free port", e);
            }
        }
        return ports;
    }
}
