package io.jobinfo.store.seatunnel;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A DataSerializable that records in {@link #INITIALIZED} (a field of another class, so reading it does not
 * initialize this one) whether it was ever initialized: stored bytes name it, and the codec must never load it.
 */
public class Tripwire implements DataSerializable {

    static {
        Flag.INITIALIZED.set(true);
    }

    /** Holder of the flag. */
    public static final class Flag {
        public static final AtomicBoolean INITIALIZED = new AtomicBoolean();

        private Flag() {
        }
    }

    @Override
    public void writeData(ObjectDataOutput out) {
    }

    @Override
    public void readData(ObjectDataInput in) {
    }
}
