package io.jobinfo.store.s3;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code moto_server} (moto 5.x, a real server of the AWS APIs, S3 and KMS among them) as a process on a free
 * loopback port. Skips the calling test (JUnit assumption, with the reason) when no {@code moto_server} is on the
 * PATH. Moto does not check request signatures, so any credentials work.
 *
 * <p>Failure behaviour: {@link #start()} throws {@link IllegalStateException} with moto's output if it exits or does
 * not listen within 60 s.
 */
final class MotoServer implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final URI endpoint;

    private MotoServer(Process process, Path log, URI endpoint) {
        this.process = process;
        this.log = log;
        this.endpoint = endpoint;
    }

    static MotoServer start() throws Exception {
        Optional<File> binary = onPath("moto_server");
        Assumptions.assumeTrue(binary.isPresent(), "moto_server is not on the PATH (install moto[server] 5.x)");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path log = Files.createTempFile("moto-server", ".log");
        Process p = new ProcessBuilder(binary.get().getPath(), "-H", "127.0.0.1", "-p", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        MotoServer moto = new MotoServer(p, log, URI.create("http://127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!listening(port)) {
            if (!p.isAlive()) {
                String out = Files.readString(log);
                moto.close();
                throw new IllegalStateException("moto_server exited with " + p.exitValue() + ": " + out);
            }
            if (System.nanoTime() > deadline) {
                String out = Files.readString(log);
                moto.close();
                throw new IllegalStateException("moto_server did not listen on port " + port + " within 60 s: "
                        + out);
            }
            Thread.sleep(100);
        }
        return moto;
    }

    URI endpoint() {
        return endpoint;
    }

    /**
     * Creates a symmetric KMS key through moto's KMS API (TrentService.CreateKey, unsigned: moto does not check) and
     * returns its key id.
     */
    String createKmsKey(String description) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/"))
                .timeout(Duration.ofSeconds(60))
                .header("X-Amz-Target", "TrentService.CreateKey")
                .header("Content-Type", "application/x-amz-json-1.1")
                // moto routes by the service named in the credential scope
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=any/20260101/us-east-1/kms/aws4_request,"
                        + " SignedHeaders=host, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"Description\":\"" + description + "\"}"))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"KeyId\":\\s*\"([^\"]+)\"").matcher(response.body());
        if (response.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("moto KMS CreateKey answered " + response.statusCode() + ": "
                    + response.body());
        }
        return m.group(1);
    }

    @Override
    public void close() throws Exception {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        Files.deleteIfExists(log);
    }

    private static Optional<File> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            File f = new File(dir, name);
            if (f.isFile() && f.canExecute()) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
