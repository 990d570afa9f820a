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
 * Hazelcast serializer of {@link HistoryReference} (type id {@value #TYPE_ID}, "JIH2"), registered by the plugin jar
 * ({@link HistoryReferenceSerializerHook}). {@link #write} writes {@value #BYTES} bytes: the history map's index, the
 * job id, the pointer's timestamp (the entry's expiry), the payload's length, CRC32C and SHA-256 prefix, and the
 * envelope's format version; the codec is always {@link HistoryMover#CODEC_ID} and the store is the map's. {@link #read}
 * returns what SeaTunnel put in the history map ({@code JobMetrics}, {@code JobState}, {@code JobDAGInfo}): the blob's
 * verified bytes, through the bounded cache of the member whose serialization service reads, deserialized by that
 * service as the inline value would have been. References of the first format ("JIH1", 33 bytes more: the pointer
 * with its store id, and the expiry again) are still read, by {@link HistoryReferenceV1Serializer}.
 *
 * <p>Failure: a process without a running drop-in (a client), a member without that map's history store, a store
 * that stays unreachable, a missing or damaged blob, bytes that are no reference: {@link HazelcastSerializationException}
 * (or an {@link IOException} for bytes cut short) naming the job and the location.
 */
public final class HistoryReferenceSerializer implements StreamSerializer<Object> {

    /** "JIH2": wire format. */
    public static final int TYPE_ID = 0x4A494832;
    /** Bytes of a reference after the Data header. */
    static final int BYTES = 1 + 8 + 8 + 4 + 4 + 16 + 1;

    /** Whether {@code typeId} is the type id of a history reference, of either format. */
    static boolean isReference(int typeId) {
        return typeId == TYPE_ID || typeId == HistoryReferenceV1Serializer.TYPE_ID;
    }

    @Override
    public int getTypeId() {
        return TYPE_ID;
    }

    @Override
    public void write(ObjectDataOutput out, Object object) throws IOException {
        HistoryReference reference = (HistoryReference) object;
        JobInfoPointer pointer = reference.pointer();
        if (pointer.codecId() != HistoryMover.CODEC_ID || pointer.payloadLength() > Integer.MAX_VALUE) {
            throw new HazelcastSerializationException("job " + pointer.jobId() + ": a history reference holds codec "
                    + HistoryMover.CODEC_ID + " and fewer than 2 GiB, not codec " + pointer.codecId() + " and "
                    + pointer.payloadLength() + " bytes");
        }
        out.writeByte(reference.mapIndex());
        out.writeLong(pointer.jobId());
        out.writeLong(pointer.initializationTimestamp());
        out.writeInt((int) pointer.payloadLength());
        out.writeInt(pointer.payloadCrc32c());
        out.write(pointer.sha256Prefix());
        out.writeByte(pointer.formatVersion());
    }

    @Override
    public Object read(ObjectDataInput in) throws IOException {
        int mapIndex = Byte.toUnsignedInt(in.readByte());
        long jobId = in.readLong();
        if (mapIndex >= HistoryMaps.ALL.size()) {
            throw new HazelcastSerializationException("job " + jobId + ": a history reference names map number "
                    + mapIndex + "; there are " + HistoryMaps.ALL.size() + " history maps " + HistoryMaps.ALL);
        }
        String map = HistoryMaps.ALL.get(mapIndex);
        SerializationService reader = in instanceof SerializationServiceSupport
                ? ((SerializationServiceSupport) in).getSerializationService() : null;
        DropInService service = DropInService.forSerializationService(reader);
        JobInfoResolver resolver = service == null ? null : service.historyResolverOfMap(map);
        if (resolver == null) {
            throw new HazelcastSerializationException("job " + jobId + ": its finished-job history of " + map + " is"
                    + " kept in a JobInfo store, and this process runs no jobinfo-store drop-in with that map's history"
                    + " (a client, or a member without it in seatunnel.engine.jobinfo-dropin.history); read it on a"
                    + " member of the cluster");
        }
        long expiresAt = in.readLong();
        long payloadLength = Integer.toUnsignedLong(in.readInt());
        int crc32c = in.readInt();
        byte[] prefix = new byte[16];
        in.readFully(prefix);
        int formatVersion = Byte.toUnsignedInt(in.readByte());
        JobInfoPointer pointer = JobInfoPointer.ofFields(jobId, expiresAt, resolver.storeId(), payloadLength, crc32c,
                prefix, HistoryMover.CODEC_ID, formatVersion);
        return resolver.resolve(pointer, reader);
    }

    /** The expiry a reference of either format records: its {@code type} and its bytes after the Data header. */
    static long expiresAt(int type, ObjectDataInput in) throws IOException {
        if (type == TYPE_ID) {
            in.readByte();
            in.readLong();
            return in.readLong();
        }
        HistoryReferenceV1Serializer.readPointer(in);
        return in.readLong();
    }
}
