package io.jobinfo.store.codec.kryo;

import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.AbstractJobInfoCodec;
import io.jobinfo.store.codec.CodecException;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Kryo encoding of an engine's own job description class, codec id {@value #ID}: the engine brings the class and a
 * Kryo {@link Serializer} for it that writes every field explicitly.
 *
 * <p>Kryo runs with registration required and only the value class registered (under the given registration id,
 * with the given serializer), and the value is written with {@code writeObject}, so no class name or class id ever
 * enters the data and decoding never instantiates a class the bytes name. A serializer that tries to write or read a
 * nested object of an unregistered class fails: {@link #encode} throws an {@link IllegalArgumentException} naming the
 * class, {@link #decode} a {@link CodecException}.
 *
 * <p><b>Hostile lengths.</b> The payload may come from anyone who can write a map value or a blob. Decoding reads
 * it through an {@code Input} that checks every length of a string or primitive array against the bytes left
 * before allocating (Kryo 5's own {@code Input} allocates first and has no limit to set); a count that the
 * serializer reads itself and allocates from (a collection's size) must be checked by the serializer against
 * {@code in.limit() - in.position()}, at least one byte per element.
 *
 * <p>Kryo instances are not thread-safe; a bounded {@link Pool} lends one per call. The serializer instance is shared
 * by all pooled Kryo instances, so it must be stateless (most explicit serializers are).
 *
 * @param <T> the job description type; immutable
 */
public final class KryoJobInfoCodec<T> extends AbstractJobInfoCodec<T> {

    /** The codec id of Kryo-encoded job descriptions. */
    public static final int ID = 1;
    /** The first registration id Kryo leaves free (0..9 are its primitive and String registrations). */
    public static final int MIN_REGISTRATION_ID = 10;
    private static final String NAME = "kryo-jobinfo-v1";
    private static final int DEFAULT_BUFFER = 8192;

    private final ToIntFunction<? super T> sizeHint;
    private final Pool<Kryo> pool;

    /**
     * A codec for {@code type} that starts each encoding in an 8 KiB buffer and lets it grow.
     *
     * @see #KryoJobInfoCodec(Class, Serializer, int, ToIntFunction)
     */
    public KryoJobInfoCodec(Class<T> type, Serializer<T> serializer, int registrationId) {
        this(type, serializer, registrationId, value -> DEFAULT_BUFFER);
    }

    /**
     * A codec for {@code type}.
     *
     * @param type           the job description class, registered with Kryo
     * @param serializer     writes and reads every field of {@code type} explicitly; stateless (shared by threads)
     * @param registrationId Kryo registration id of {@code type}, at least {@value #MIN_REGISTRATION_ID}; it is not
     *                       written to the data, but must be the same wherever the serializer looks classes up
     * @param sizeHint       about how many bytes {@code value} encodes to; the first buffer gets this size (plus the
     *                       header room), so a good hint means the payload is never copied while encoding
     * @throws IllegalArgumentException {@code registrationId} is below {@value #MIN_REGISTRATION_ID}
     * @throws NullPointerException     an argument is null (the message names it)
     */
    public KryoJobInfoCodec(Class<T> type, Serializer<T> serializer, int registrationId,
                            ToIntFunction<? super T> sizeHint) {
        super(ID, NAME, Objects.requireNonNull(type, "type"));
        Objects.requireNonNull(serializer, "serializer");
        this.sizeHint = Objects.requireNonNull(sizeHint, "sizeHint");
        if (registrationId < MIN_REGISTRATION_ID) {
            throw new IllegalArgumentException("Kryo registration id " + registrationId + " of " + type.getName()
                    + " is taken by Kryo's own registrations; use " + MIN_REGISTRATION_ID + " or more");
        }
        this.pool = new Pool<Kryo>(true, false, Math.max(4, Runtime.getRuntime().availableProcessors() * 2)) {
            @Override
            protected Kryo create() {
                Kryo kryo = new Kryo();
                kryo.setRegistrationRequired(true);
                kryo.setReferences(false);
                kryo.register(type, serializer, registrationId);
                return kryo;
            }
        };
    }

    @Override
    public byte[] encode(T value) {
        Kryo kryo = pool.obtain();
        try {
            Output out = new Output(bufferSize(value, 0), -1);
            kryo.writeObject(out, value);
            return out.toBytes();
        } catch (KryoException e) {
            throw new IllegalArgumentException(NAME + ": cannot encode the job description: " + e.getMessage(), e);
        } finally {
            pool.free(kryo);
        }
    }

    /** Writes straight into Kryo's buffer after the header room: with a good size hint, no copy of the payload. */
    @Override
    public EncodedPayload encode(T value, int headerRoom) {
        Kryo kryo = pool.obtain();
        try {
            Output out = new Output(bufferSize(value, headerRoom), -1);
            out.setPosition(headerRoom);
            kryo.writeObject(out, value);
            return EncodedPayload.of(out.getBuffer(), headerRoom, out.position() - headerRoom);
        } catch (KryoException e) {
            throw new IllegalArgumentException(NAME + ": cannot encode the job description: " + e.getMessage(), e);
        } finally {
            pool.free(kryo);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The serializer reads from an {@link Input} that refuses every string or array length the bytes left cannot
     * hold before allocating it, so a few hostile bytes claiming gigabytes fail here with a {@link CodecException}
     * naming offset, claimed and available size. Any runtime exception of the serializer (a length it checked
     * itself, a null, an index) also ends in a {@link CodecException}.
     */
    @Override
    public T decode(byte[] payload) throws CodecException {
        Kryo kryo = pool.obtain();
        try {
            Input in = new BoundedInput(payload);
            T value = kryo.readObject(in, type());
            if (in.position() != payload.length) {
                throw new CodecException(NAME + ": " + (payload.length - in.position())
                        + " unexpected bytes after the job description");
            }
            return value;
        } catch (RuntimeException e) {
            throw new CodecException(NAME + ": cannot decode the job description: " + e.getMessage(), e);
        } finally {
            pool.free(kryo);
        }
    }

    private int bufferSize(T value, int headerRoom) {
        Objects.requireNonNull(value, "value");
        long size = (long) headerRoom + Math.max(64, sizeHint.applyAsInt(value));
        return (int) Math.min(Integer.MAX_VALUE - 8, size);
    }

    @Override
    public String toString() {
        return NAME + "(" + type().getName() + ")";
    }
}
