package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.nio.serialization.Serializer;
import com.hazelcast.nio.serialization.SerializerHook;
import com.hazelcast.nio.serialization.StreamSerializer;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.io.IOException;

/**
 * Reads the history references of the drop-in's first format (type id {@value #TYPE_ID}, "JIH1": the whole pointer
 * with its store id, then the expiry), which clusters that ran an earlier drop-in still hold until their entries
 * expire; nothing writes them any more ({@link HistoryReferenceSerializer} writes "JIH2"). Registered by the plugin
 * jar through {@link Hook}, for the marker type {@link V1} that nothing instantiates.
 */
public final class HistoryReferenceV1Serializer implements StreamSerializer<Object> {

    /** "JIH1": wire format. */
    public static final int TYPE_ID = 0x4A494831;

    /** The Java type the hook registers this serializer for; never instantiated (references are only read). */
    public static final class V1 {
        private V1() {
        }
    }

    @Override
    public int getTypeId() {
        return TYPE_ID;
    }

    @Override
    public void write(ObjectDataOutput out, Object object) {
        throw new HazelcastSerializationException("history references of the first format are only read");
    }

    @Override
    public Object read(ObjectDataInput in) throws IOException {
        JobInfoPointer pointer = readPointer(in); // the expiry after it is not needed to read the value
        SerializationService reader = in instanceof SerializationServiceSupport
                ? ((SerializationServiceSupport) in).getSerializationService() : null;
        DropInService service = DropInService.forSerializationService(reader);
        JobInfoResolver resolver = service == null ? null : service.historyResolver(pointer.storeId());
        if (resolver == null) {
            throw new HazelcastSerializationException("job " + pointer.jobId() + ": its finished-job history is kept"
                    + " in the JobInfo store '" + pointer.storeId() + "' (" + pointer.payloadLength() + " bytes), and"
                    + " this process runs no jobinfo-store drop-in with that history store (a client, or a member"
                    + " without seatunnel.engine.jobinfo-dropin.history); read it on a member of the cluster");
        }
        return resolver.resolve(pointer, reader);
    }

    /** The pointer a first-format reference begins with; its expiry, a {@code long}, follows. */
    static JobInfoPointer readPointer(ObjectDataInput in) throws IOException {
        JobInfoPointer pointer = new JobInfoPointer();
        pointer.readData(in);
        return pointer;
    }

    /** Registers this serializer in every Hazelcast serialization service of a process with the plugin jar. */
    public static final class Hook implements SerializerHook<V1> {
        @Override
        public Class<V1> getSerializationType() {
            return V1.class;
        }

        @Override
        public Serializer createSerializer() {
            return new HistoryReferenceV1Serializer();
        }

        @Override
        public boolean isOverwritable() {
            return false;
        }
    }
}
