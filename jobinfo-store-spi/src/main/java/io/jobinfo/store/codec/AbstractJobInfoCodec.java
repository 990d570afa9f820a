package io.jobinfo.store.codec;

import java.util.Objects;

/**
 * The identity part of a {@link JobInfoCodec}: its id, name and type, given once at construction.
 *
 * @param <T> the job description type
 */
public abstract class AbstractJobInfoCodec<T> implements JobInfoCodec<T> {
    private final int id;
    private final String name;
    private final Class<T> type;

    protected AbstractJobInfoCodec(int id, String name, Class<T> type) {
        this.id = id;
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
    }

    @Override
    public final int id() {
        return id;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Class<T> type() {
        return type;
    }
}
