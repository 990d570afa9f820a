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
 * The retry strategy of the store's <em>reads</em> (GetObject, HeadObject, HeadBucket, the listings): the SDK's
 * standard strategy ({@code s3.retry.*}), plus immediate retries of an attempt that met a pooled connection the
 * server had closed, which do not count against {@code s3.retry.max-attempts}.
 *
 * <p>Why: after the endpoint restarts (or a load balancer in front of it drops its connections), every connection
 * the client's pool kept is dead. The Apache client checks a pooled connection only when it was idle for more than
 * 2 s, so a request soon after the restart is sent on a dead connection and fails without an answer
 * ({@code NoHttpResponseException: The target server failed to respond}, or a reset). The SDK retries it, but the
 * retry takes the next pooled connection, dead too: with more dead connections in the pool than attempts, the first
 * read after a restart failed although the server was up (seen in {@code S3ServerCrashTest} and reproduced by
 * {@code S3StaleConnectionTest}). Each failed attempt closes its connection, so at most
 * {@link S3JobInfoStoreFactory#MAX_CONNECTIONS} such retries empty the pool; then the standard budget applies.
 *
 * <p>Why only reads: repeating a read cannot change what is stored. A write that met a dead connection may,
 * in general, have been carried out before the answer was lost; writes keep the standard budget and the store's
 * classification of their outcome ({@link S3Attempts}).
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
