package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.s3.testing.S3FixtureExtension;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import io.jobinfo.store.spi.testing.TestBlobs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/** Bad configuration is reported at once and at start-up, naming the key; credentials never leak. */
@ExtendWith(S3FixtureExtension.class)
class S3ConfigurationTest {

    private final S3Fixture s3;
    private final String bucket;

    S3ConfigurationTest(S3Fixture s3) {
        this.s3 = s3;
        this.bucket = s3.createBucket("config");
    }

    @Test
    void everyProblemIsListedAtOnceNamingItsKey() {
        String secret = "s3cr3t-" + UUID.randomUUID();
        JobInfoStorageConfig config = JobInfoStorageConfig.builder("s3").namespace("/jobinfo")
                .option("s3.region", "Not A Region")
                .option("s3.endpoint", "ftp://host/path")
                .option("s3.secret-key", secret)
                .option("s3.retry.max-attempts", "zero")
                .option("s3.retry.base-delay", "soon")
                .option("s3.call-timeout", "0s")
                .option("s3.sse", "aes")
                .option("s3.sse-kms-key-id", "arn:aws:kms:key")
                .option("s3.multipart.threshold", "1MiB")
                .option("s3.multipart.part-size", "huge")
                .option("s3.path-style-access", "yes")
                .option("s3.allow-unconditional-writes", "maybe")
                .option("s3.probe.race-rounds", "0")
                .option("s3.request-checksum", "md5")
                .build();
        List<String> problems = new S3JobInfoStoreFactory().validate(config);
        assertThat(String.join("\n", problems))
                .contains("s3.bucket: missing")
                .contains("s3.region: 'Not A Region'")
                .contains("s3.endpoint: 'ftp://host/path'")
                .contains("s3.access-key: missing while s3.secret-key is set")
                .contains("s3.retry.max-attempts: 'zero'")
                .contains("s3.retry.base-delay: 'soon'")
                .contains("s3.call-timeout: '0s' must be positive")
                .contains("s3.sse: 'aes'")
                .contains("s3.sse-kms-key-id: only used with s3.sse=kms")
                .contains("s3.multipart.threshold: 1.0 MiB must be between 5MiB and 5GiB")
                .contains("s3.multipart.part-size: 'huge'")
                .contains("s3.path-style-access: 'yes' must be true or false")
                .contains("s3.allow-unconditional-writes: 'maybe'")
                .contains("s3.probe.race-rounds: 0 must be between 1 and 100")
                .contains("s3.request-checksum: 'md5' must be auto (the start-up probe decides), crc32c")
                .doesNotContain(secret);
        assertThat(problems).hasSize(15);
        assertThatThrownBy(() -> JobInfoStores.open(config)).isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("15 problems").hasMessageNotContaining(secret);
    }

    @Test
    void invalidBucketNamesAreRejectedBeforeAnyRequest() {
        for (String bad : List.of("ab", "Upper", "under_score", "-dash", "dot..dot", "192.168.1.1", "x".repeat(64))) {
            List<String> problems = new S3JobInfoStoreFactory().validate(S3TestConfigs.builder(s3, bad, "/ns")
                    .build());
            assertThat(problems).as(bad).singleElement().asString().contains("s3.bucket: '" + bad + "'")
                    .contains("not a valid bucket name");
        }
    }

    @Test
    void aMissingBucketFailsAtStartUp() {
        assertThatThrownBy(() -> JobInfoStores.open(S3TestConfigs.builder(s3, "no-such-bucket-" + UUID.randomUUID()
                .toString().substring(0, 8), "/ns").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("fix jobinfo-storage.plugin-config.s3.bucket");
    }

    @Test
    void wrongCredentialsFailAtStartUpAndNoCredentialIsLoggedOrInAMessage() throws Exception {
        String wrongSecret = "wrong-secret-" + UUID.randomUUID();
        List<ILoggingEvent> events = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        withLogsCaptured(events, () -> {
            try {
                JobInfoStores.open(S3TestConfigs.withoutSecret(s3, s3.endpoint(), bucket, "/creds")
                        .option("s3.secret-key", wrongSecret).build()).close();
                throw new AssertionError("a wrong secret key was accepted");
            } catch (JobInfoStoreException e) {
                messages.add(stackTrace(e));
                assertThat(e).hasMessageContaining("denied")
                        .hasMessageContaining("s3.access-key/s3.secret-key");
            }
            // and a working store, used, with everything logged at DEBUG
            try (JobInfoStore store = JobInfoStores.open(S3TestConfigs.builder(s3, bucket, "/creds").build())) {
                store.create(1, BlobSource.ofBytes(BlobEnvelope.wrap(1, 1, TestBlobs.payloadNamed(1))));
                store.read(1);
                try {
                    store.create(1, BlobSource.ofBytes(BlobEnvelope.wrap(1, 1, TestBlobs.payloadNamed(2))));
                } catch (JobInfoStoreException e) {
                    messages.add(stackTrace(e));
                }
                messages.add(store.toString());
            }
        });
        assertThat(events).as("DEBUG logging was captured").isNotEmpty();
        for (ILoggingEvent event : events) {
            String text = event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(event.getThrowableProxy()));
            assertThat(text).doesNotContain(wrongSecret).doesNotContain(s3.secretKey());
            if (event.getLoggerName().startsWith("io.jobinfo")) {
                assertThat(text).doesNotContain(s3.accessKey());
            }
        }
        assertThat(messages).hasSize(3);
        for (String m : messages) {
            assertThat(m).doesNotContain(wrongSecret).doesNotContain(s3.secretKey()).doesNotContain(s3.accessKey());
        }
    }

    @Test
    void aServerRefusingServerSideEncryptionFailsAtStartUpNotAtTheFirstJob() {
        // S3Proxy's filesystem blob store answers 501 to SSE headers; other fixtures may support SSE.
        assumeThat(s3.kind()).isEqualTo(S3Fixture.Kind.S3PROXY);
        assertThatThrownBy(() -> JobInfoStores.open(S3TestConfigs.builder(s3, bucket, "/sse").option("s3.sse", "s3").build()))
                .isInstanceOf(JobInfoStoreException.class)
                .hasMessageContaining("501")
                .hasMessageContaining("check s3.sse");
    }

    @Test
    void describeOptionsDocumentsEveryKeyWithItsDefault() {
        var options = new S3JobInfoStoreFactory().describeOptions();
        assertThat(options).containsKeys("s3.bucket", "s3.region", "s3.endpoint", "s3.path-style-access",
                "s3.access-key", "s3.secret-key", "s3.retry.max-attempts", "s3.retry.base-delay",
                "s3.connection-timeout", "s3.call-timeout", "s3.sse", "s3.sse-kms-key-id", "s3.multipart.threshold",
                "s3.multipart.part-size", "s3.allow-unconditional-writes", "s3.probe.race-rounds",
                "s3.request-checksum");
        assertThat(options.get("s3.multipart.threshold")).contains("default 16MiB");
        assertThat(options.get("s3.retry.max-attempts")).contains("default 5");
        assertThat(options.get("s3.probe.race-rounds")).contains("default 3");
        assertThat(options.get("s3.request-checksum")).contains("auto (default").contains("when-required")
                .contains("unchunked").contains("crc32c");
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Captures io.jobinfo, software.amazon and org.apache.http at DEBUG while {@code body} runs. */
    static void withLogsCaptured(List<ILoggingEvent> into, ThrowingRunnable body) throws Exception {
        withLogsCaptured(into, Level.DEBUG, List.of("io.jobinfo", "software.amazon", "org.apache.http"), body);
    }

    /** Captures the named loggers at {@code level} while {@code body} runs. */
    static void withLogsCaptured(List<ILoggingEvent> into, Level level, List<String> names, ThrowingRunnable body)
            throws Exception {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        List<Logger> loggers = new ArrayList<>();
        List<Level> levels = new ArrayList<>();
        for (String name : names) {
            Logger logger = (Logger) LoggerFactory.getLogger(name);
            loggers.add(logger);
            levels.add(logger.getLevel());
            logger.setLevel(level);
            logger.setAdditive(false);
            logger.addAppender(appender);
        }
        try {
            body.run();
        } finally {
            for (int i = 0; i < loggers.size(); i++) {
                loggers.get(i).detachAppender(appender);
                loggers.get(i).setLevel(levels.get(i));
                loggers.get(i).setAdditive(true);
            }
            appender.stop();
            into.addAll(appender.list);
        }
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
