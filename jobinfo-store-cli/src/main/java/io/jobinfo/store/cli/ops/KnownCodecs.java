package io.jobinfo.store.cli.ops;

import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The codecs the CLI decodes payloads with: the demo model's Kryo codec (id 1), always, and SeaTunnel's job data
 * codec (id 2, {@code io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec}) when jobinfo-store-seatunnel and SeaTunnel's
 * engine core are on the class path. The SeaTunnel codec is looked up by that fixed name of this project's own class,
 * never by a name found in stored bytes; if it is absent, or cannot start (a jar it needs is missing), it is simply not
 * known, and {@code verify} reports id-2 payloads as not decodable by this installation.
 */
final class KnownCodecs {

    static final String SEATUNNEL_CODEC = "io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec";

    private KnownCodecs() {
    }

    static List<JobInfoCodec<?>> all() {
        List<JobInfoCodec<?>> codecs = new ArrayList<>();
        codecs.add(JobImmutableInformationSerializer.codec());
        try {
            Class<?> type = Class.forName(SEATUNNEL_CODEC, true, KnownCodecs.class.getClassLoader());
            codecs.add((JobInfoCodec<?>) type.getConstructor().newInstance());
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            // not installed with this CLI
        }
        return Collections.unmodifiableList(codecs);
    }
}
