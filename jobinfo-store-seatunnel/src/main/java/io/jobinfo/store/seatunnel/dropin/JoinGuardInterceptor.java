package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.map.MapInterceptor;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;

/**
 * Keeps members without the plugin out of a cluster that stores jobs by reference. It changes nothing (every method
 * returns {@code null}, "no change", or does nothing) and sits on a map that holds no entry
 * ({@link JoinGuard#GUARD_MAP}), so no job operation ever calls it; its only effect is that Hazelcast copies the
 * interceptors of every map to each joining member inside the join's post-join operation. A member that lacks this
 * class (a stock SeaTunnel without the plugin jar) cannot deserialize that operation, logs "Node could not join
 * cluster" and shuts down, so it never becomes master of jobs it could not read. A member with the jar but without
 * configuration never gets that far ({@link DropInService}). It is deliberately not on {@code engine_runningJobInfo}:
 * an interceptor there makes Hazelcast deserialize every value put and read, on the partition thread, whatever class
 * its bytes name.
 *
 * <p>It also carries the store identity of the member that installed it ({@link DropInService#storeIdentity()}: type,
 * store id and namespace). A joining member with the plugin whose own {@code jobinfo-storage} names another store
 * refuses it while deserializing ({@link #readObject}), so its join fails the same way: members whose configuration
 * drifted never form one active cluster. A guard of an older plugin version carries no identity and is not checked.
 *
 * <p>Every member adds the same interceptor: equal instances with one hash code, so Hazelcast keeps one id (the
 * first one installed, whose identity every member shares by this very check).
 */
public final class JoinGuardInterceptor implements MapInterceptor {

    private static final long serialVersionUID = 1L;

    /**
     * The id Hazelcast gives this interceptor on every member (class name and hash code), by which a passive member
     * removes it ({@code IMap.removeInterceptor}).
     */
    public static final String ID = JoinGuardInterceptor.class.getName() + 0x4A495347;

    /** The store identity of the members of the cluster; null in a guard of an older plugin version. */
    private final String storeIdentity;

    JoinGuardInterceptor(String storeIdentity) {
        this.storeIdentity = storeIdentity;
    }

    /** The store identity this guard carries (null: not checked). */
    String storeIdentity() {
        return storeIdentity;
    }

    /**
     * Refuses the guard on a member whose drop-in names another store: the join (or the installation) fails here.
     *
     * @throws InvalidObjectException naming both stores and what to do
     */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        DropInService local = DropInService.forCurrentMember();
        if (storeIdentity != null && local != null && !storeIdentity.equals(local.storeIdentity())) {
            String message = "this member's jobinfo-storage (" + local.storeIdentity() + ", from "
                    + local.settings().source() + ") differs from the one of the cluster it joins (" + storeIdentity
                    + "): members whose jobinfo-storage differs must never form one cluster, since each would read and"
                    + " delete the other's jobs in its own store. Give every member the same jobinfo-storage section";
            local.refused(message);
            throw new InvalidObjectException(message);
        }
    }
    @Override
    public Object interceptGet(Object value) {
        return null;
    }

    @Override
    public void afterGet(Object value) {
        // nothing
    }

    @Override
    public Object interceptPut(Object oldValue, Object newValue) {
        return null;
    }

    @Override
    public void afterPut(Object value) {
        // nothing
    }

    @Override
    public Object interceptRemove(Object removedValue) {
        return null;
    }

    @Override
    public void afterRemove(Object oldValue) {
        // nothing
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JoinGuardInterceptor;
    }

    @Override
    public int hashCode() {
        return 0x4A495347;
    }
}
