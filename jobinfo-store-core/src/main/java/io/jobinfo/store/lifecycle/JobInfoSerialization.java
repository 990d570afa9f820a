package io.jobinfo.store.lifecycle;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * Registers the Hazelcast serialization of {@link JobInfoPointer}, {@link InlineJobInfo}, {@link DeleteMarker}
 * and the fencing processors. Call
 * {@link #configure(Config)} on every member's config (and {@link #configure(ClientConfig)} on tools that connect as
 * clients) before the instance starts.
 */
public final class JobInfoSerialization {

    /** Factory id of this library's values ("JIS" in ASCII). */
    public static final int FACTORY_ID = 0x4A4953;
    public static final int POINTER_CLASS_ID = 1;
    public static final int INLINE_CLASS_ID = 2;
    /** {@link DeleteMarker}; 3 to 7 are the fencing processors. */
    public static final int DELETE_MARKER_CLASS_ID = 8;
    /** {@link ClusterIncident}. */
    public static final int INCIDENT_CLASS_ID = 9;

    private JobInfoSerialization() {
    }

    public static Config configure(Config config) {
        register(config.getSerializationConfig());
        return config;
    }

    public static ClientConfig configure(ClientConfig config) {
        register(config.getSerializationConfig());
        return config;
    }

    private static void register(SerializationConfig serialization) {
        serialization.addDataSerializableFactory(FACTORY_ID, new Factory());
    }

    /** Creates the values by class id; never by a class name found in the data. */
    public static final class Factory implements DataSerializableFactory {
        @Override
        public IdentifiedDataSerializable create(int typeId) {
            switch (typeId) {
                case POINTER_CLASS_ID:
                    return new JobInfoPointer();
                case INLINE_CLASS_ID:
                    return new InlineJobInfo();
                case FencingProcessors.POINTER_OP_CLASS_ID:
                    return new FencingProcessors.FencedPointerOp();
                case FencingProcessors.BACKUP_APPLY_CLASS_ID:
                    return new FencingProcessors.BackupApply();
                case FencingProcessors.RAISE_FENCE_CLASS_ID:
                    return new FencingProcessors.RaiseFence(0); // its long is read by readData
                case FencingProcessors.NEXT_EPOCH_CLASS_ID:
                    return new FencingProcessors.NextEpoch(0); // its long is read by readData
                case FencingProcessors.REJECTED_CLASS_ID:
                    return new FencingProcessors.Rejected(0); // its long is read by readData
                case DELETE_MARKER_CLASS_ID:
                    return new DeleteMarker();
                case INCIDENT_CLASS_ID:
                    return new ClusterIncident();
                default:
                    throw new IllegalArgumentException("Unknown jobinfo-store class id " + typeId
                            + "; a newer version of jobinfo-store wrote this value");
            }
        }
    }
}
