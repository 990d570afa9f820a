package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.nio.serialization.Serializer;
import com.hazelcast.nio.serialization.SerializerHook;

/** Registers {@link HistoryReferenceSerializer} in every Hazelcast serialization service of a process with the jar. */
public final class HistoryReferenceSerializerHook implements SerializerHook<HistoryReference> {

    @Override
    public Class<HistoryReference> getSerializationType() {
        return HistoryReference.class;
    }

    @Override
    public Serializer createSerializer() {
        return new HistoryReferenceSerializer();
    }

    @Override
    public boolean isOverwritable() {
        return false;
    }
}
