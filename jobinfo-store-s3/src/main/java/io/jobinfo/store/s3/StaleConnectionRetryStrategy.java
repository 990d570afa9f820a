package io.jobinfo.store.s3;

import java.net.SocketException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Predicate;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RecordSuccessResponse;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * The retry strategy of every store request: the SDK's standard strategy ({@code s3.retry.*}), plus immediate retries
 * of an attempt that met a pooled connection the server had closed, which do not count against
 * {@code s3.retry.max-attempts}.
 *
 * <p>Why: after the endpoint restarts (or a load balancer in front of it drops its connections), every connection
 * the client's pool kept is dead. The Apache client checks a pooled connection only when it was idle for more than
 * 2 s, so a request soon after the restart is sent on a dead connection and fails without an answer
 * ({@code NoHttpResponseException: The target server failed to respond}, a reset, or a broken pipe while sending).
 * The SDK retries it, but the retry takes the next pooled connection, dead too: with more dead connections in the
 * pool than attempts, the first request after a restart failed although the server was up (reads seen in
 * {@code S3ServerCrashTest}; reads, a create and a delete reproduced by {@code S3StaleConnectionTest}). Each failed
 * attempt closes its connection, so at most {@link S3JobInfoStoreFactory#MAX_CONNECTIONS} such retries empty the
 * pool; then the standard budget applies.
 *
 * <p><b>Why writes may be repeated too.</b> A read cannot change what is stored. A write whose request met a dead
 * connection may, in general, have been carried out before its answer was lost (a server that took the request and
 * then went away); the SDK's standard strategy already repeats writes after such transport errors, and this strategy
 * only repeats them more often. Each write of the store is safe to repeat: a create is conditional
 * ({@code If-None-Match: *}) and idempotent on identical bytes, so if an earlier attempt was stored, the repeat is
 * answered 412 and {@link io.jobinfo.store.spi.AbstractJobInfoStore#create} reads the object back and finds the
 * same bytes ({@code ALREADY_PRESENT}), and it can never replace another writer's blob; a repeated
 * CompleteMultipartUpload whose first attempt succeeded is answered NoSuchUpload, which the store resolves by finding
 * the object; an UploadPart replaces the same part with the same bytes; DeleteObject and AbortMultipartUpload are
 * idempotent; a repeated CreateMultipartUpload can leave an extra upload, which the listing reports as incomplete and
 * garbage collection aborts. In the explicitly allowed unconditional mode ({@code s3.allow-unconditional-writes}) a
 * repeated PutObject writes the same bytes again, as the standard retries already did. When a write still fails, the
 * store's classification of its outcome ({@link S3Attempts}) counts such attempts as "may have landed".
 */
final class StaleConnectionRetryStrategy implements RetryStrategy {

    private final RetryStrategy delegate;
    private final int maxStaleRetries;

    StaleConnectionRetryStrategy(RetryStrategy delegate, int maxStaleRetries) {
        this.delegate = delegate;
        this.maxStaleRetries = maxStaleRetries;
    }

    /**
     * Whether {@code failure} is what a request on a connection the server had already closed looks like: no answer
     * at all ({@code org.apache.http.NoHttpResponseException}), or the connection reset or broken while sending.
     */
    static boolean isDeadConnection(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if ("org.apache.http.NoHttpResponseException".equals(t.getClass().getName())) {
                return true;
            }
            if (t instanceof SocketException && t.getMessage() != null) {
                String m = t.getMessage().toLowerCase(Locale.ROOT);
                if (m.contains("connection reset") || m.contains("broken pipe")) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public AcquireInitialTokenResponse acquireInitialToken(AcquireInitialTokenRequest request) {
        AcquireInitialTokenResponse r = delegate.acquireInitialToken(request);
        return AcquireInitialTokenResponse.create(new Token(r.token(), 0), r.delay());
    }

    @Override
    public RefreshRetryTokenResponse refreshRetryToken(RefreshRetryTokenRequest request) {
        Token token = (Token) request.token();
        if (token.staleRetries < maxStaleRetries && isDeadConnection(request.failure())) {
            return RefreshRetryTokenResponse.create(new Token(token.inner, token.staleRetries + 1), Duration.ZERO);
        }
        try {
            RefreshRetryTokenResponse r = delegate.refreshRetryToken(request.toBuilder().token(token.inner).build());
            return RefreshRetryTokenResponse.create(new Token(r.token(), token.staleRetries), r.delay());
        } catch (TokenAcquisitionFailedException e) {
            throw new TokenAcquisitionFailedException(e.getMessage(), new Token(e.token(), token.staleRetries),
                    e.getCause());
        }
    }

    @Override
    public RecordSuccessResponse recordSuccess(RecordSuccessRequest request) {
        Token token = (Token) request.token();
        RecordSuccessResponse r = delegate.recordSuccess(RecordSuccessRequest.create(token.inner));
        return RecordSuccessResponse.create(new Token(r.token(), token.staleRetries));
    }

    @Override
    public int maxAttempts() {
        return delegate.maxAttempts();
    }

    /** The delegate is complete as given: the client must not add its defaults around this wrapper. */
    @Override
    public boolean useClientDefaults() {
        return false;
    }

    @Override
    public Builder toBuilder() {
        return new Builder(delegate.toBuilder(), maxStaleRetries);
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** The delegate's token and the dead-connection retries spent so far. */
    private static final class Token implements RetryToken {
        final RetryToken inner;
        final int staleRetries;

        Token(RetryToken inner, int staleRetries) {
            this.inner = inner;
            this.staleRetries = staleRetries;
        }
    }

    /** Configures the delegate; {@link #build()} wraps it again. */
    static final class Builder implements RetryStrategy.Builder<Builder, StaleConnectionRetryStrategy> {
        private final RetryStrategy.Builder<?, ?> inner;
        private final int maxStaleRetries;

        Builder(RetryStrategy.Builder<?, ?> inner, int maxStaleRetries) {
            this.inner = inner;
            this.maxStaleRetries = maxStaleRetries;
        }

        @Override
        public Builder retryOnException(Predicate<Throwable> shouldRetry) {
            inner.retryOnException(shouldRetry);
            return this;
        }

        @Override
        public Builder maxAttempts(int maxAttempts) {
            inner.maxAttempts(maxAttempts);
            return this;
        }

        @Override
        public Builder backoffStrategy(BackoffStrategy backoffStrategy) {
            inner.backoffStrategy(backoffStrategy);
            return this;
        }

        @Override
        public Builder throttlingBackoffStrategy(BackoffStrategy backoffStrategy) {
            inner.throttlingBackoffStrategy(backoffStrategy);
            return this;
        }

        @Override
        public Builder treatAsThrottling(Predicate<Throwable> treatAsThrottling) {
            inner.treatAsThrottling(treatAsThrottling);
            return this;
        }

        @Override
        public StaleConnectionRetryStrategy build() {
            return new StaleConnectionRetryStrategy(inner.build(), maxStaleRetries);
        }
    }
}
