package io.jobinfo.store.it;

import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.envelope.BlobSource;
import io.jobinfo.store.spi.CreateOutcome;
import io.jobinfo.store.spi.ForwardingJobInfoStore;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.StoredBlob;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store (the real one of the member, delegated to) whose blob writes can be parked in the middle, for
 * {@link MemberMain}'s {@code DURING_BLOB:<k>} crash point: once the real store's {@code create} has read {@code k}
 * bytes of the blob's source, the reading thread calls {@code onPark} and then waits forever, for the test to
 * {@code kill -9} the JVM. The bytes before {@code k} are in the real store's hands (written, buffered or sent,
 * depending on the backend); nothing of the write is faked.
 */
final class ParkingStore extends ForwardingJobInfoStore {

    private final Map<Long, Long> parkAt = new ConcurrentHashMap<>();
    private final Map<Long, Runnable> onPark = new ConcurrentHashMap<>();

    ParkingStore(JobInfoStore delegate) {
        super(delegate);
    }

    /** The next write of {@code jobId} parks after {@code bytes} bytes (at most the blob's length). */
    void arm(long jobId, long bytes, Runnable parked) {
        parkAt.put(jobId, bytes);
        onPark.put(jobId, parked);
    }

    @Override
    public CreateOutcome create(long jobId, BlobSource blob) throws JobInfoStoreException {
        Long at = parkAt.remove(jobId);
        if (at == null) {
            return delegate.create(jobId, blob);
        }
        long k = Math.min(at, blob.length());
        Runnable parked = onPark.remove(jobId);
        return delegate.create(jobId, new BlobSource() {
            @Override
            public long length() {
                return blob.length();
            }

            @Override
            public InputStream open() throws IOException {
                return new ParkingStream(blob.open(), k, parked);
            }
        });
    }

    /** Hands out at most {@code k} bytes, then parks the reader for good. */
    private static final class ParkingStream extends FilterInputStream {
        private final long k;
        private final Runnable parked;
        private long read;

        ParkingStream(InputStream in, long k, Runnable parked) {
            super(in);
            this.k = k;
            this.parked = parked;
        }

        private void parkIfThere() {
            if (read >= k) {
                parked.run();
                MemberMain.parkForever();
            }
        }

        @Override
        public int read() throws IOException {
            parkIfThere();
            int b = super.read();
            if (b >= 0) {
                read++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            parkIfThere();
            int n = super.read(b, off, (int) Math.min(len, Math.max(1, k - read)));
            if (n > 0) {
                read += n;
            }
            return n;
        }
    }
}
