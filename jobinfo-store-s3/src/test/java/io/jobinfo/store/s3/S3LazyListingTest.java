package io.jobinfo.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.s3.testing.S3Fixture;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.StoredBlob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link S3JobInfoStore#listUntil} requests a listing page only when the visitor has taken the page before, on the
 * shared S3 fixture, with pages of 2 keys so that 7 blobs span 4 pages. The requests are counted by an SDK
 * interceptor on the store's own client (the requests themselves are real).
 */
class S3LazyListingTest {

    private final AtomicInteger listObjectsRequests = new AtomicInteger();
    private S3Client client;
    private S3JobInfoStore store;

    @BeforeEach
    void open() {
        S3Fixture s3 = S3Fixture.shared();
        String bucket = s3.createBucket("lazy-listing");
        List<String> problems = S3StoreSettings.newProblems();
        S3StoreSettings settings = S3StoreSettings.parse(S3TestConfigs.builder(s3, bucket, "/lazy").build(),
                problems);
        assertThat(problems).isEmpty();
        client = s3.newClient(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if ("ListObjectsV2".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
                    listObjectsRequests.incrementAndGet();
                }
            }
        }));
        store = new S3JobInfoStore(client, settings, "lazy-listing", true).listPageKeys(2);
    }

    @AfterEach
    void close() throws Exception {
        store.close();
        client.close();
    }

    @Test
    void aVisitorThatStopsEarlyCostsOnePageAndOneThatTakesAllCostsEveryPage() throws Exception {
        for (long id = 1; id <= 7; id++) {
            store.create(id, BlobSource.ofBytes(BlobEnvelope.wrap(id, 1, new byte[] {(byte) id})));
        }

        List<Long> first = new ArrayList<>();
        listObjectsRequests.set(0);
        store.listUntil(b -> {
            first.add(b.jobId());
            return false;
        });
        assertThat(first).containsExactly(1L); // keys are the job id in fixed-width hex: listed in id order
        assertThat(listObjectsRequests).hasValue(1);

        List<Long> three = new ArrayList<>();
        listObjectsRequests.set(0);
        store.listUntil(b -> {
            three.add(b.jobId());
            return three.size() < 3;
        });
        assertThat(three).containsExactly(1L, 2L, 3L);
        assertThat(listObjectsRequests).hasValue(2);

        listObjectsRequests.set(0);
        List<Long> all = store.list().stream().filter(b -> !b.incomplete()).map(StoredBlob::jobId).toList();
        assertThat(all).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(listObjectsRequests).hasValue(4);
    }
}
