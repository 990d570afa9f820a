package io.jobinfo.store.cli.ops;

import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The codecs the CLI decodes payloads with: the demo model's Kryo codec (id 1) and SeaTunnel's job data codec (id 2,
 * {@link SeaTunnelJobDataCodec}, which checks SeaTunnel's bytes without deserializing them). A payload of any other
 * codec id is reported by {@code verify} as not decodable by this installation.
 */
final class KnownCodecs {

    private KnownCodecs() {
    }

    static List<JobInfoCodec<?>> all() {
        return Collections.unmodifiableList(Arrays.<JobInfoCodec<?>>asList(JobImmutableInformationSerializer.codec(),
                new SeaTunnelJobDataCodec()));
    }
}
