package io.jobinfo.store.seatunnel.it;

import io.jobinfo.store.lifecycle.NamespaceClaim;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.seatunnel.harness.junit.SeaTunnelClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link CrashTrials} with the native S3 backend; the S3 server is S3Proxy in the test JVM ({@link S3Fixture}, or the
 * endpoint given by {@code -Djobinfo.s3.endpoint}), reached by the members over loopback. Leftovers are objects under
 * the prefix with no entry and pending multipart uploads. Long mode only.
 */
@EnabledIfSystemProperty(named = "jobinfo.it.long", matches = "true", disabledReason = CrashTrials.DISABLED)
class DropInS3CrashTrialsTest extends CrashTrials {

    static final String PREFIX = "seatunnel/crash";
    static S3Fixture s3;
    static String bucket;
    static S3Client lister;

    @RegisterExtension
    static final SeaTunnelClusterExtension ST = new SeaTunnelClusterExtension(() -> {
        s3 = S3Fixture.shared();
        bucket = s3.createBucket("st-crash");
        String yaml = DropInS3StoreTest.storageYaml(PREFIX, bucket, s3.endpoint(), s3);
        return spec(DropInS3CrashTrialsTest.class.getSimpleName(), yaml);
    }, Duration.ofSeconds(180));

    @Override
    SeaTunnelClusterExtension st() {
        return ST;
    }

    @Override
    String backend() {
        return "s3";
    }

    @Override
    List<String> storeFiles() {
        List<String> out = new ArrayList<>();
        // one client for the class: the audit lists the store every 250 ms until GC is done, and a new SDK client per
        // listing costs more CPU than the listing
        synchronized (DropInS3CrashTrialsTest.class) {
            if (lister == null) {
                lister = s3.newClient();
            }
        }
        S3Client client = lister;
        client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(PREFIX)).contents().stream()
                .map(o -> o.key().substring(o.key().lastIndexOf('/') + 1))
                .filter(name -> !name.equals(NamespaceClaim.BLOB_NAME)) // the namespace's claim, no job's
                .forEach(out::add);
        client.listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix(PREFIX)).uploads()
                .forEach(u -> out.add("pending multipart upload " + u.key()));
        return out;
    }

    @AfterAll
    static void closeLister() {
        if (lister != null) {
            lister.close();
        }
    }
}
