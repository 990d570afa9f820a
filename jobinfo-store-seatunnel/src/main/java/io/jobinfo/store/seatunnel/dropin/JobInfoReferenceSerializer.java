package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.nio.serialization.StreamSerializer;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.jobinfo.store.seatunnel.ReferenceData;
import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.io.IOException;

/**
 * Hazelcast serializer of {@link JobInfoReference}, registered by the jar itself
 * ({@link JobInfoReferenceSerializerHook} in {@code META-INF/services/com.hazelcast.SerializerHook}): no
 * {@code hazelcast.yaml} line is needed, so every process that has the plugin jar can at least recognise a reference.
 *
 * <p>Typed {@code Object}, not {@code JobInfoReference}: reading yields another type. {@link #write} writes the pointer's fields (about 60 bytes). {@link #read} reads them and returns what SeaTunnel
 * expects where it calls {@code toObject} on the job's Data ({@code JobMaster.init}, the REST endpoints): the real
 * {@code JobImmutableInformation}, loaded from the store by the {@link DropInService} of the member whose
 * serialization service is reading.
 *
 * <p>Failure: in a process without a running drop-in (a client, or a member being shut down) {@link #read} throws
 * {@link HazelcastSerializationException} naming the job and saying why; a store that stays unreachable, a missing or
 * damaged blob also end in a {@link HazelcastSerializationException} naming job id and location, after the bounded
 * retries of {@link JobInfoResolver}.
 */
public final class JobInfoReferenceSerializer implements StreamSerializer<Object> {

    /** The Hazelcast type id of a reference ({@link ReferenceData#TYPE_ID}, "JIS1"): wire format. */
    public static final int TYPE_ID = ReferenceData.TYPE_ID;

    @Override
    public int getTypeId() {
        return TYPE_ID;
    }

    @Override
    public void write(ObjectDataOutput out, Object reference) throws IOException {
        ((JobInfoReference) reference).pointer().writeData(out);
    }

    @Override
    public Object read(ObjectDataInput in) throws IOException {
        JobInfoPointer pointer = new JobInfoPointer();
        pointer.readData(in);
        SerializationService reader = in instanceof SerializationServiceSupport
                ? ((SerializationServiceSupport) in).getSerializationService() : null;
        DropInService service = DropInService.forSerializationService(reader);
        if (service == null) {
            throw new HazelcastSerializationException("job " + pointer.jobId() + ": its JobImmutableInformation is kept"
                    + " in the JobInfo store '" + pointer.storeId() + "' (" + pointer.payloadLength() + " bytes), and"
                    + " this process runs no jobinfo-store drop-in that could load it (a client, or a member without"
                    + " the plugin running); read it on a member of the cluster");
        }
        return service.resolver().resolve(pointer, reader);
    }
}
