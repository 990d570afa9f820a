package io.jobinfo.store.seatunnel;

import io.jobinfo.store.lifecycle.JobInfoPointer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of the Hazelcast {@code Data} that the drop-in puts inside SeaTunnel's {@code JobInfo} in place of the
 * job: exactly what the drop-in's {@code JobInfoReferenceSerializer} produces for a {@link JobInfoReference} (partition hash 0,
 * type id {@link #TYPE_ID}, then the pointer's fields as {@link JobInfoPointer#writeData}
 * writes them), built and read without a serialization service so that the command line tool, which runs another
 * Hazelcast version and no drop-in, writes and recognises the same references as the members. Hazelcast's default
 * big-endian byte order is assumed (the one SeaTunnel's configuration uses).
 *
 * <p>Failure: {@link #pointer(byte[])} returns {@code null} for bytes of any other type and throws
 * {@link IOException} for a reference whose fields are cut short or invalid.
 */
public final class ReferenceData {

    /**
     * The Hazelcast type id of a reference ({@code 0x4A495331}, "JIS1"), the drop-in's serializer's: wire format.
     * Custom serializer ids are positive and must be unique in the cluster; SeaTunnel 2.3.8's own custom serializer
     * ({@code RecordSerializer}) uses a small one.
     */
    public static final int TYPE_ID = 0x4A495331;

    /** Partition hash (4 bytes) and type id (4 bytes), big-endian, as Hazelcast's {@code HeapData} lays them out. */
    static final int HEADER = 8;
    /** Bytes of a reference besides its store id's: the header and the pointer's fixed fields. */
    public static final int HEADER_AND_FIELDS = HEADER + 8 + 8 + 8 + 4 + 16 + 2 + 1 + 4;

    private ReferenceData() {
    }

    /** Whether {@code dataBytes} (a whole Hazelcast Data) is a drop-in reference. */
    public static boolean isReference(byte[] dataBytes) {
        return dataBytes != null && dataBytes.length >= HEADER && readInt(dataBytes, 4) == TYPE_ID;
    }

    /** The Data bytes of a reference to {@code pointer}. */
    public static byte[] of(JobInfoPointer pointer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(0);
            out.writeInt(TYPE_ID);
            out.writeLong(pointer.jobId());
            out.writeLong(pointer.initializationTimestamp());
            out.writeLong(pointer.payloadLength());
            out.writeInt(pointer.payloadCrc32c());
            out.write(pointer.sha256Prefix());
            out.writeShort(pointer.codecId());
            out.writeByte(pointer.formatVersion());
            byte[] store = pointer.storeId().getBytes(StandardCharsets.UTF_8);
            out.writeInt(store.length);
            out.write(store);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
    }

    /**
     * The pointer inside a reference's Data bytes, or {@code null} if the bytes are not a reference.
     *
     * @throws IOException the bytes are a reference but cut short or invalid (the message names the job if known)
     */
    public static JobInfoPointer pointer(byte[] dataBytes) throws IOException {
        if (!isReference(dataBytes)) {
            return null;
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(dataBytes, HEADER,
                dataBytes.length - HEADER));
        long jobId = in.readLong();
        try {
            long timestamp = in.readLong();
            long payloadLength = in.readLong();
            int crc = in.readInt();
            byte[] sha = new byte[16];
            in.readFully(sha);
            int codecId = in.readUnsignedShort();
            int formatVersion = in.readUnsignedByte();
            int storeLength = in.readInt();
            if (storeLength < 1 || storeLength > 64) {
                throw new IOException("invalid store id length " + storeLength);
            }
            byte[] store = new byte[storeLength];
            in.readFully(store);
            if (in.read() != -1) {
                throw new IOException("bytes after the store id");
            }
            return JobInfoPointer.ofFields(jobId, timestamp, new String(store, StandardCharsets.UTF_8), payloadLength,
                    crc, sha, codecId, formatVersion);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("the drop-in reference of job " + jobId + " is damaged: " + e.getMessage(), e);
        }
    }

    private static int readInt(byte[] b, int offset) {
        return ((b[offset] & 0xff) << 24) | ((b[offset + 1] & 0xff) << 16) | ((b[offset + 2] & 0xff) << 8)
                | (b[offset + 3] & 0xff);
    }
}
