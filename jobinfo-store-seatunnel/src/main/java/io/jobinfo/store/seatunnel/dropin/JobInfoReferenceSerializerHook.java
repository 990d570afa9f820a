package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.nio.serialization.Serializer;
import com.hazelcast.nio.serialization.SerializerHook;

/**
 * Registers {@link JobInfoReferenceSerializer} in every Hazelcast serialization service of a process that has the
 * plugin jar (members and clients alike), through {@code META-INF/services/com.hazelcast.SerializerHook}. Not
 * overwritable: a configured serializer for the same class would make references unreadable.
 */
public final class JobInfoReferenceSerializerHook implements SerializerHook<JobInfoReference> {

    @Override
    public Class<JobInfoReference> getSerializationType() {
        return JobInfoReference.class;
    }

    @Override
    public Serializer createSerializer() {
        return new JobInfoReferenceSerializer();
    }

    @Override
    public boolean isOverwritable() {
        return false;
    }
}
