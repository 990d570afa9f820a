package io.jobinfo.store.s3.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which failures of a {@code ceph} command the fixture tries again. The refusal below is what CI printed when a
 * fixture start failed on its {@code ceph osd stat} poll (stop 32): the monitor refused a command that reached it
 * before the client knew the cluster's fsid. It does not come on demand from a real monitor, so the message is given.
 */
class RgwServerMonitorRefusalTest {

    @Test
    void theMonitorsTransientRefusalIsTriedAgain() {
        assertThat(RgwServer.isTransientMonitorRefusal(
                "ceph osd exited with 1: \nError EPERM: problem getting command descriptions from mon.")).isTrue();
        assertThat(RgwServer.isTransientMonitorRefusal("ceph osd exited with 1: wrong fsid")).isTrue();
    }

    @Test
    void otherFailuresAreNot() {
        assertThat(RgwServer.isTransientMonitorRefusal(
                "ceph osd exited with 22: Error EINVAL: invalid command")).isFalse();
        assertThat(RgwServer.isTransientMonitorRefusal("ceph did not finish within 60 s")).isFalse();
        assertThat(RgwServer.isTransientMonitorRefusal(null)).isFalse();
    }
}
