package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.nio.serialization.StreamSerializer;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.io.IOException;

/**
 * Hazelcast serializer of {@link HistoryReference} (type id {@value #TYPE_ID}, "JIH1"), registered by the plugin jar
 * ({@link HistoryReferenceSerializerHook}). {@link #write} writes the pointer and the expiry (about 80 bytes);
 * {@link #read} returns what SeaTunnel put in the history map ({@code JobMetrics}, {@code JobState},
 * {@code JobDAGInfo}): the blob's verified bytes, through the bounded cache of the member whose serialization
 * service reads, deserialized by that service as the inline value would have been.
 *
 * <p>Failure: a process without a running drop-in (a client), a store that stays unreachable, a missing or damaged
 * blob: {@link HazelcastSerializationException} naming the job and the location.
 */
public final class HistoryReferenceSerializer implements StreamSerializer<Object> {

    /** "JIH1": wire format. */
    public static final int TYPE_ID = 0x4A494831;

    @Override
    public int getTypeId() {
        return TYPE_ID;
    }

    @Override
    public void write(ObjectDataOutput out, Object object) throws IOException {
        HistoryReference reference = (HistoryReference) object;
        reference.pointer().writeData(out);
        out.writeLong(reference.expiresAt());
    }

    @Override
    public Object read(ObjectDataInput in) throws IOException {
        HistoryReference reference = readReference(in);
        JobInfoPointer pointer = reference.pointer();
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

    static HistoryReference readReference(ObjectDataInput in) throws IOException {
        JobInfoPointer pointer = new JobInfoPointer();
        pointer.readData(in);
        return new HistoryReference(pointer, in.readLong());
    }
}
