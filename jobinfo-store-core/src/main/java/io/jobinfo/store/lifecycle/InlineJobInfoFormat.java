package io.jobinfo.store.lifecycle;

import io.jobinfo.store.lifecycle.InlineJobInfo;
import io.jobinfo.store.lifecycle.JobInfoSerialization;

/**
 * {@link JobValueFormat} of this library's {@link InlineJobInfo}: any codec, restores every codec id it is asked for
 * (put it after more specific formats in a {@link JobValueFormats}).
 */
public final class InlineJobInfoFormat implements JobValueFormat {

    /** The format's name: {@value}. */
    public static final String NAME = "inline";

    /** Serialized size of an {@link InlineJobInfo} besides its payload: Hazelcast data header (8 bytes), the
     * identified-data-serializable header (9), timestamp (8), codec id (2) and array length (4). */
    public static final int OVERHEAD = 8 + 9 + 8 + 2 + 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean recognises(Object value) {
        return value instanceof InlineJobInfo;
    }

    @Override
    public boolean readsIdentified(int factoryId, int classId) {
        return factoryId == JobInfoSerialization.FACTORY_ID && classId == JobInfoSerialization.INLINE_CLASS_ID;
    }

    @Override
    public InlineJob read(long jobId, Object value) {
        InlineJobInfo inline = (InlineJobInfo) value;
        return new InlineJob(inline.initializationTimestamp(), inline.codecId(), inline.encodedJob());
    }

    @Override
    public boolean restores(int codecId) {
        return true;
    }

    @Override
    public Object inlineValue(long jobId, InlineJob job) {
        return new InlineJobInfo(job.initializationTimestamp(), job.codecId(), job.payload());
    }

    @Override
    public long valueBytes(long payloadLength) {
        return OVERHEAD + payloadLength;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
