package io.jobinfo.store.seatunnel.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Member ports come from outside the kernel's ephemeral range, where no outgoing connection takes one between the
 * pick and the member's start (a CI run lost a spare member to "Port [41687] is already in use": it had been picked
 * with {@code new ServerSocket(0)}, inside the range).
 */
class FreePortsTest {

    @Test
    void portsAreDistinctFreeAndOutsideTheEphemeralRange() throws IOException {
        int[] range = FreePorts.ephemeralRange();
        int[] ports = FreePorts.pick(8);
        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(8);
        for (int port : ports) {
            assertThat(port).as("port %d against the ephemeral range %d-%d", port, range[0], range[1])
                    .satisfiesAnyOf(p -> assertThat(p).isBetween(FreePorts.LOWEST, range[0] - 1),
                            p -> assertThat(p).isGreaterThan(range[1]));
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
    }

    @Test
    void aTakenPortIsNeverPicked() throws IOException {
        int[] first = FreePorts.pick(1);
        try (ServerSocket held = new ServerSocket()) {
            held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), first[0]));
            for (int i = 0; i < 50; i++) {
                assertThat(FreePorts.pick(4)).doesNotContain(first[0]);
            }
        }
    }
}
