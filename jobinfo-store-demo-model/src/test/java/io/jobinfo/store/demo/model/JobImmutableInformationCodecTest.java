package io.jobinfo.store.demo.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.EncodedPayload;
import io.jobinfo.store.codec.JobInfoCodec;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class JobImmutableInformationCodecTest {

    private final KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();

    @Test
    void roundTripsEveryField() throws Exception {
        JobImmutableInformation job = new JobGenerator(7).generate(-12345, 200_000);
        byte[] bytes = codec.encode(job);
        JobImmutableInformation back = codec.decode(bytes);
        assertThat(back).isEqualTo(job);
        assertThat(back.jobConfig().envOptions()).isEqualTo(job.jobConfig().envOptions());
        assertThat(back.connectorJarIdentifiers()).isEqualTo(job.connectorJarIdentifiers());
        assertThat(back.isStartWithSavePoint()).isEqualTo(job.isStartWithSavePoint());
    }

    @Test
    void encodingWithHeaderRoomBuildsTheSameEnvelopeWithoutCopies() throws Exception {
        JobImmutableInformation job = new JobGenerator(9).generate(31, 150_000);
        byte[] plain = codec.encode(job);
        EncodedPayload roomy = codec.encode(job, io.jobinfo.store.envelope.EnvelopeHeader.LENGTH);
        assertThat(roomy.toByteArray()).isEqualTo(plain);
        assertThat(roomy.contentEquals(plain)).isTrue();

        var header = io.jobinfo.store.envelope.BlobEnvelope.wrapInPlace(31, codec.id(), roomy);
        byte[] inPlace = java.util.Arrays.copyOf(roomy.buffer(), header.blobLength() > Integer.MAX_VALUE ? 0
                : (int) header.blobLength());
        assertThat(inPlace).isEqualTo(io.jobinfo.store.envelope.BlobEnvelope.wrap(31, codec.id(), plain));
        // and the default (copying) implementation of other codecs agrees
        JobInfoCodec<JobImmutableInformation> viaDefault = new JobInfoCodec<>() {
            @Override public int id() { return codec.id(); }
            @Override public String name() { return "default"; }
            @Override public Class<JobImmutableInformation> type() { return JobImmutableInformation.class; }
            @Override public byte[] encode(JobImmutableInformation value) { return codec.encode(value); }
            @Override public JobImmutableInformation decode(byte[] payload) throws CodecException {
                return codec.decode(payload);
            }
        };
        assertThat(viaDefault.encode(job, 68).toByteArray()).isEqualTo(plain);
    }

    /**
     * Blobs already stored must keep decoding, and the same job must keep encoding to the same bytes (a resubmit is
     * compared byte for byte): the SHA-256 of encodings made by the codec before it moved out of the core (commit
     * 8521f90, where it was {@code io.jobinfo.store.codec.kryo.KryoJobInfoCodec} typed on {@code io.jobinfo.store.model}).
     */
    @Test
    void encodesByteForByteAsBeforeTheMove() throws Exception {
        Object[][] golden = {
            {7L, -12345L, 200_000, 200_208, "1557845348fe7d6037e3f2a09cc8799a10f9b61d4cc1d2b3766d7cd37d041d22"},
            {1L, 1L, 8_000, 8_174, "fa2d1a21dbd0ee07511d6616d4cbea45c54bd14c255a4e0343b9b877dc73f17b"},
            {42L, 99L, 50_000, 50_179, "d19b783cc25c7ca762e31f0a324b8a0e3e2de9ee8722ea6e7c78d21f0b0f47cd"},
        };
        for (Object[] g : golden) {
            JobImmutableInformation job = new JobGenerator((Long) g[0]).generate((Long) g[1], (Integer) g[2]);
            byte[] bytes = codec.encode(job);
            assertThat(bytes).hasSize((Integer) g[3]);
            assertThat(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(bytes))).isEqualTo(g[4]);
            assertThat(codec.decode(bytes)).isEqualTo(job);
        }
        JobImmutableInformation empty = new JobImmutableInformation(0, "empty", false, 0, new byte[0],
                new JobConfig("empty", Map.of()), List.of(), Set.of());
        assertThat(java.util.HexFormat.of().formatHex(codec.encode(empty)))
                .isEqualTo("010000000000000000656d7074f900000000000000000000656d7074f9000000");
        assertThat(codec.id()).isEqualTo(KryoJobInfoCodec.ID);
    }

    @Test
    void generatorHitsTheRequestedSize() {
        for (int target : new int[] {8_000, 50_000, 200_000, 1_000_000}) {
            int size = codec.encode(new JobGenerator(1).generate(1, target)).length;
            assertThat(size).as("target %d", target).isBetween((int) (target * 0.97), (int) (target * 1.03));
        }
    }

    @Test
    void generatorIsDeterministicPerSeedAndJob() {
        assertThat(new JobGenerator(3).generate(9, 20_000)).isEqualTo(new JobGenerator(3).generate(9, 20_000));
        assertThat(new JobGenerator(3).generate(9, 20_000)).isNotEqualTo(new JobGenerator(3).generate(10, 20_000));
    }

    @Test
    void noClassNameEntersTheEncoding() {
        byte[] bytes = codec.encode(new JobGenerator(2).generate(5, 10_000));
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertThat(text).doesNotContain("io.jobinfo").doesNotContain("java.util");
    }

    @Test
    void truncatedOrGarbageBytesFailWithACodecException() {
        byte[] bytes = codec.encode(new JobGenerator(2).generate(5, 10_000));
        for (int cut : new int[] {0, 1, 9, 30, bytes.length / 2, bytes.length - 1}) {
            assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, cut))).as("cut at %d", cut)
                    .isInstanceOf(CodecException.class).hasMessageContaining("kryo-jobinfo-v1");
        }
        byte[] newer = bytes.clone();
        newer[0] = 9;
        assertThatThrownBy(() -> codec.decode(newer)).isInstanceOf(CodecException.class)
                .hasMessageContaining("unknown schema 9");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);
        assertThatThrownBy(() -> codec.decode(longer)).isInstanceOf(CodecException.class)
                .hasMessageContaining("unexpected bytes");
    }

    @Test
    void envOptionsOfOtherTypesAreRefusedAtConstruction() {
        assertThatThrownBy(() -> new JobConfig("x", Map.of("bad", new Object())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad");
    }

    @Test
    void isSafeToShareAcrossThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        JobImmutableInformation job = new JobGenerator(seed).generate(i, 5_000 + i * 100);
                        if (!codec.decode(codec.encode(job)).equals(job)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void emptyCollectionsRoundTrip() throws Exception {
        JobImmutableInformation job = new JobImmutableInformation(0, "empty", false, 0, new byte[0],
                new JobConfig("empty", Map.of()), List.of(), Set.of());
        assertThat(codec.decode(codec.encode(job))).isEqualTo(job);
    }
}
