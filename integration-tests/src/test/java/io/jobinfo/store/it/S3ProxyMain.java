package io.jobinfo.store.it;

import java.net.URI;
import java.util.Properties;

/**
 * S3Proxy 4.1.0 as a process of its own, for tests that kill the S3 server with SIGKILL: the {@code filesystem} blob
 * store in {@code args[0]} (so objects and pending multipart uploads survive a restart), listening on 127.0.0.1 port
 * {@code args[1]} (0: any free port), credentials {@code args[2]} / {@code args[3]}. Prints {@code S3PROXY-READY
 * <port>} on stdout once it serves, then runs until killed. Exits with status 1 (message on stderr) if it cannot
 * start, for example when the port is still taken.
 */
public final class S3ProxyMain {

    static final String READY = "S3PROXY-READY ";

    private S3ProxyMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: S3ProxyMain <basedir> <port> <access-key> <secret-key>");
            System.exit(2);
        }
        try {
            Properties props = new Properties();
            props.setProperty("jclouds.filesystem.basedir", args[0]);
            org.gaul.s3proxy.blobstore.BlobStore blobStore = org.gaul.s3proxy.BlobStores.create("filesystem", props);
            org.gaul.s3proxy.S3Proxy proxy = org.gaul.s3proxy.S3Proxy.builder()
                    .blobStore(blobStore)
                    .endpoint(URI.create("http://127.0.0.1:" + Integer.parseInt(args[1])))
                    .awsAuthentication(org.gaul.s3proxy.auth.AuthenticationType.AWS_V2_OR_V4, args[2], args[3])
                    .stopTimeout(0)
                    .build();
            proxy.start();
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!"STARTED".equals(proxy.getState())) {
                if (System.nanoTime() > deadline || "FAILED".equals(proxy.getState())) {
                    throw new IllegalStateException("S3Proxy did not start (state " + proxy.getState() + ")");
                }
                Thread.sleep(10);
            }
            System.out.println(READY + proxy.getPort());
            System.out.flush();
            Thread.currentThread().join(); // until SIGKILL
        } catch (Exception e) {
            System.err.println("S3Proxy could not start: " + e);
            System.exit(1);
        }
    }
}
