package io.jobinfo.store.it;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An S3 server ({@link S3ProxyMain}) in a child JVM that a test kills with SIGKILL and restarts on the same port and
 * directory. The child is registered with {@link ChildJvms}, so none outlives the suite.
 *
 * <p>Failure behaviour: {@link #start} and {@link #restart} throw {@link IllegalStateException} with the child's
 * stderr file named if it does not report ready within two minutes (a loaded build machine).
 */
final class S3ProxyProcess implements AutoCloseable {

    private final Path dir;
    private final File log;
    private final String accessKey = "crash-access-" + UUID.randomUUID().toString().substring(0, 8);
    private final String secretKey = "crash-secret-" + UUID.randomUUID();
    private Process process;
    private int port;

    private S3ProxyProcess(Path dir, File log) {
        this.dir = dir;
        this.log = log;
    }

    /** Starts a server on any free port, storing in {@code dir}; its stderr goes to {@code log}. */
    static S3ProxyProcess start(Path dir, File log) throws Exception {
        S3ProxyProcess p = new S3ProxyProcess(dir, log);
        p.launch(0);
        return p;
    }

    private void launch(int wantedPort) throws Exception {
        Exception last = null;
        for (int attempt = 0; attempt < 10; attempt++) { // the old port may linger for a moment after a kill
            Process p = ChildJvms.start(S3ProxyMain.class.getName(),
                    List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Dlogback.configurationFile=logback-child.xml"),
                    List.of(dir.toString(), String.valueOf(wantedPort), accessKey, secretKey), log);
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<String> ready = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try {
                    String line;
                    while ((line = out.readLine()) != null) { // keeps draining stdout after the ready line
                        if (line.startsWith(S3ProxyMain.READY)) {
                            ready.complete(line.substring(S3ProxyMain.READY.length()).trim());
                        }
                    }
                } catch (IOException ignored) {
                    // the child died
                }
                ready.complete(null);
            }, "s3proxy-stdout");
            reader.setDaemon(true);
            reader.start();
            String answer;
            try {
                answer = ready.get(120, TimeUnit.SECONDS);
            } catch (Exception e) {
                answer = null;
                last = e;
            }
            if (answer != null) {
                process = p;
                port = Integer.parseInt(answer);
                return;
            }
            ChildJvms.kill9(p);
            Thread.sleep(500);
        }
        throw new IllegalStateException("S3Proxy did not start on port " + wantedPort + " within 10 attempts; see "
                + log, last);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    int port() {
        return port;
    }

    String accessKey() {
        return accessKey;
    }

    String secretKey() {
        return secretKey;
    }

    /** SIGKILL: no shutdown hook, no flush, open connections reset. */
    void kill() {
        if (process != null) {
            ChildJvms.kill9(process);
            process = null;
        }
    }

    /** Starts the server again on the same port and directory. */
    void restart() throws Exception {
        kill();
        launch(port);
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() {
        kill();
    }
}
