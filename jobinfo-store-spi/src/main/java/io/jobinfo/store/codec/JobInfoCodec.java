package io.jobinfo.store.codec;

/**
 * Turns a job description into payload bytes and back. The codec id is recorded in every envelope, so a reader can
 * tell which codec wrote a blob; an engine that keeps its own class brings its own codec with its own id.
 *
 * <p>Implementations are thread-safe and never instantiate a class named by the bytes they decode.
 *
 * @param <T> the job description type
 */
public interface JobInfoCodec<T> {

    /**
     * Stable id stored in the envelope, 1..65535. Ids 1..255 are reserved for codecs shipped with this library; in
     * use: 1 {@code KryoJobInfoCodec} ({@code kryo-jobinfo-v1}), 2 {@code SeaTunnelJobDataCodec}
     * ({@code seatunnel-job-data-v1}, module jobinfo-store-seatunnel: SeaTunnel's own serialized job, byte for byte).
     * An id is never reused for another format.
     */
    int id();

    /** A name for messages, such as {@code kryo-jobinfo-v1}. */
    String name();

    /** The type this codec encodes. */
    Class<T> type();

    /**
     * Encodes {@code value}.
     *
     * @throws IllegalArgumentException {@code value} holds something the codec cannot represent
     */
    byte[] encode(T value);

    /**
     * Encodes {@code value} after {@code headerRoom} free bytes of the returned buffer, so that an envelope header can
     * be written in front without copying the payload. Codecs that can write into a buffer of their own override
     * this; the default copies the result of {@link #encode(Object)}.
     *
     * @throws IllegalArgumentException {@code value} holds something the codec cannot represent
     */
    default EncodedPayload encode(T value, int headerRoom) {
        byte[] payload = encode(value);
        byte[] buffer = new byte[headerRoom + payload.length];
        System.arraycopy(payload, 0, buffer, headerRoom, payload.length);
        return EncodedPayload.of(buffer, headerRoom, payload.length);
    }

    /**
     * Decodes a payload this codec wrote.
     *
     * @throws CodecException the bytes are not a valid encoding (truncated, or a newer schema)
     */
    T decode(byte[] payload) throws CodecException;
}
