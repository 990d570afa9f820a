package io.jobinfo.store.s3;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Locale;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * What the SDK's attempts of one failed call prove about the server's side. The SDK retries a call on its own; the
 * exception it finally throws describes the last attempt only, carries the number of attempts
 * ({@link SdkException#numAttempts()}) and, as suppressed exceptions, one line per earlier attempt
 * ("Request attempt N failure: ..."). An earlier attempt whose request was written to the server and whose answer was
 * lost may have been carried out even though the last attempt was refused, so a write may only be reported as "nothing
 * was stored" when every attempt is proven not to have reached the server: the connection was never established
 * (refused, no route, unknown host, connect timeout). Anything else (a reset or timeout after connecting, a 5xx, a
 * missing record of an attempt) counts as "may have landed".
 */
final class S3Attempts {

    private static final String ATTEMPT_PREFIX = "Request attempt ";

    private S3Attempts() {
    }

    /** Attempts the SDK made for the call that ended with {@code e}; 1 when it does not say. */
    static int count(SdkException e) {
        Integer n = e.numAttempts();
        return n == null || n < 1 ? 1 : n;
    }

    /**
     * Whether an attempt before the last one may have reached the server: {@code false} only when there was a single
     * attempt, or when every earlier attempt is recorded and each failed to connect.
     */
    static boolean anEarlierAttemptMayHaveLanded(SdkException e) {
        int earlier = count(e) - 1;
        if (earlier == 0) {
            return false;
        }
        int provenHarmless = 0;
        for (Throwable s : e.getSuppressed()) {
            String message = s.getMessage();
            if (message == null || !message.startsWith(ATTEMPT_PREFIX)) {
                continue;
            }
            if (!isConnectFailureMessage(message)) {
                return true;
            }
            provenHarmless++;
        }
        return provenHarmless < earlier;
    }

    /** Whether the last attempt failed before a connection to the server existed (so it sent nothing). */
    static boolean lastAttemptNeverConnected(SdkException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof UnknownHostException
                    || "org.apache.http.conn.ConnectTimeoutException".equals(t.getClass().getName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Recognises the recorded message of an attempt that never connected. The Apache client words them "Connect to
     * host:port [...] failed: Connection refused" (or "connect timed out"); an unknown host names
     * {@code UnknownHostException}.
     */
    static boolean isConnectFailureMessage(String message) {
        String m = message.toLowerCase(Locale.ROOT);
        return m.contains("connection refused")
                || m.contains("connect to ") && m.contains(" failed: ")
                || m.contains("unknownhostexception") || m.contains("no route to host");
    }
}
