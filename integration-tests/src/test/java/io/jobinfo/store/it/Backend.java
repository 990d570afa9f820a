package io.jobinfo.store.it;

import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStores;
import java.net.InetSocketAddress;

/**
 * A storage backend of the suite: how to configure a store on it (for this JVM and for member JVMs), and raw access
 * to stored blobs behind the store's back (for corruption). Started once per test JVM and shared.
 */
interface Backend {

    /** {@code local}, {@code hdfs}, {@code s3}. */
    String name();

    /** A store configuration on a namespace of its own. */
    JobInfoStorageConfig config(String namespace);

    default JobInfoStore open(String namespace) throws JobInfoStoreException {
        return JobInfoStores.open(config(namespace));
    }

    /** The stored bytes of a blob, read directly from the backend. */
    byte[] rawRead(String namespace, long jobId) throws Exception;

    /** Replaces the stored bytes of a blob directly in the backend (no write-once, no checks). */
    void rawWrite(String namespace, long jobId, byte[] bytes) throws Exception;

    /** Deletes a blob directly in the backend. */
    void rawDelete(String namespace, long jobId) throws Exception;

    /** The server a TCP fault proxy can stand in front of, or {@code null} if the backend has none. */
    default InetSocketAddress faultableServer() {
        return null;
    }

    /** Like {@link #config} but reaching the server through {@code proxy}; only if {@link #faultableServer()}. */
    default JobInfoStorageConfig configThrough(String namespace, InetSocketAddress proxy, int deadlineMillis) {
        throw new UnsupportedOperationException(name() + " has no server to put a proxy in front of");
    }
}
