package io.jobinfo.store.s3.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardSocketOptions;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * A fault injector: a TCP proxy on 127.0.0.1 in front of a real S3 server that forwards requests unchanged except
 * where a test asks for a fault no real server produces on demand: added latency per request ({@link #latency}),
 * answer the next requests with a given status and
 * S3 error code (throttling, 5xx), accept connections and never answer (a blackhole), drop a request header (a
 * server that ignores it; only usable with an unauthenticated server, since the header is signed), forward a
 * PutObject to the server and then close the client's connection without its answer (a request carried out whose
 * answer was lost: {@link #forwardThenDropPutObjectAnswers}), or refuse every connection from now on
 * ({@link #refuseConnections()}). It can also add a fixed latency to every request ({@link #latency}), drop
 * {@code If-None-Match} from CompleteMultipartUpload requests only (a server that honours the condition on PutObject
 * and ignores it on the completion, as Ceph RGW 16 does: {@link #stripIfNoneMatchFromCompletes}), or only from writes
 * of a key while another write of the same key is in flight (a server that checks, then stores, as moto does:
 * {@link #stripIfNoneMatchWhileWritesOverlap}). Every request line is recorded ({@link #requestLines}).
 *
 * <p>Each forwarded request is sent with {@code Connection: close}, so every request opens its own connection and
 * every request is seen by the proxy. Stopped by {@link #close()}. The proxy never throws once started: when the
 * client or the server goes away, the affected connection is simply closed; the constructor throws
 * {@link IOException} if no local port can be bound.
 */
public final class S3FaultProxy implements AutoCloseable {

    /** One injected answer. */
    public record Fault(int status, String code) {
    }

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "s3-fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
    private final List<String> strippedHeaders = new CopyOnWriteArrayList<>();
    private final List<String> faultedRequests = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicInteger forwarded = new AtomicInteger();
    private final AtomicInteger putObjectsSeen = new AtomicInteger();
    private final AtomicInteger droppedAnswers = new AtomicInteger();
    private volatile int dropFrom;
    private volatile int dropTo;
    private volatile List<Fault> afterDrops = List.of();
    private volatile boolean blackhole;
    private volatile int latencyMillis;
    private volatile boolean closed;
    private volatile Socket portHolder;
    private volatile boolean refusing;
    private volatile boolean refuseTrailingChecksums;
    private final AtomicInteger trailerRefusals = new AtomicInteger();
    private final List<String> putBodyEncodings = new CopyOnWriteArrayList<>();
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, AtomicInteger> writesInFlight = new ConcurrentHashMap<>();
    private volatile boolean stripIfNoneMatchFromCompletes;
    private volatile int overlapHoldMillis = -1;

    public S3FaultProxy(URI target) throws IOException {
        this.targetHost = target.getHost();
        this.targetPort = target.getPort();
        this.server = new ServerSocket();
        if (server.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
            // lets refuseConnections() keep the port bound (not listening) once the listener is closed
            server.setOption(StandardSocketOptions.SO_REUSEPORT, true);
        }
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        pool.execute(this::acceptLoop);
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Answers the next requests, one fault each, in order. */
    public void enqueue(int count, int status, String code) {
        for (int i = 0; i < count; i++) {
            faults.add(new Fault(status, code));
        }
    }

    /** Faults queued and not yet served. */
    public int pendingFaults() {
        return faults.size();
    }

    /** Request lines ("PUT /bucket/key HTTP/1.1") answered with a fault so far. */
    public List<String> faultedRequests() {
        return List.copyOf(faultedRequests);
    }

    public int forwardedRequests() {
        return forwarded.get();
    }

    /**
     * Every request from now on waits {@code millis} before the proxy looks at it (a slow store, not a down one); 0
     * turns it off. A request already waiting keeps its delay.
     */
    public void latency(int millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("latency must be at least 0 ms");
        }
        latencyMillis = millis;
    }

    /** While on, connections are accepted and held, never answered. */
    public void blackhole(boolean on) {
        blackhole = on;
    }

    /**
     * The {@code nth} to {@code (nth + count - 1)}th PutObject requests from now (1 = the next one; multipart part
     * uploads do not count) are forwarded to the server, which carries them out; the proxy reads the server's whole
     * answer, discards it and closes the client's connection without a byte. Once the last of them is dropped,
     * {@code thenAnswer} is queued as with {@link #enqueue} (before the client sees its connection close, so that the
     * client's retry meets it).
     */
    public void forwardThenDropPutObjectAnswers(int nth, int count, Fault... thenAnswer) {
        if (nth < 1 || count < 1) {
            throw new IllegalArgumentException("nth and count must be at least 1");
        }
        afterDrops = List.of(thenAnswer);
        int base = putObjectsSeen.get();
        dropTo = base + nth + count - 1;
        dropFrom = base + nth;
    }

    /** PutObject answers dropped so far by {@link #forwardThenDropPutObjectAnswers}. */
    public int droppedAnswers() {
        return droppedAnswers.get();
    }

    /**
     * Closes the listening socket: every later connection attempt to {@link #endpoint()} is refused by the operating
     * system, so no request can reach the server. Connections already open are closed too.
     *
     * <p>The port stays bound by a socket that never listens (SO_REUSEPORT, where the platform has it), so nothing
     * else on the machine (another test's S3 server binding an ephemeral port, say) can take the port over and
     * answer in its place; a connection attempt meets a reset, which the client sees as "connection refused". The
     * holding socket is bound beside the listener before it closes; where that fails (it did once, under load, cause
     * not known), it is bound once the listener and its connections are closed, retried for up to 2 s.
     *
     * @throws IllegalStateException the port could not be kept bound (the test would not be sure of its refusals)
     */
    public void refuseConnections() {
        // a connection accepted just before the listener closes, and registered in open only after the loop below
        // closed the others, is closed unanswered by its handler
        refusing = true;
        IOException beside = null;
        Socket holder = null;
        try {
            holder = holdPort(); // beside the listener, which shares the port (SO_REUSEPORT)
        } catch (IOException e) {
            beside = e;
        }
        closeListenerAndConnections();
        // Not beside the listener: once it and its connections are closed, until the port can be bound again.
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (holder == null && System.nanoTime() < deadline) {
            try {
                holder = holdPort();
            } catch (IOException e) {
                beside = beside == null ? e : beside;
                LockSupport.parkNanos(20_000_000L);
            }
        }
        if (holder == null) {
            throw new IllegalStateException("could not keep port " + server.getLocalPort() + " bound after closing"
                    + " the listener, so another server could take it over: " + beside, beside);
        }
        if (beside != null) {
            System.err.println("S3FaultProxy: port " + server.getLocalPort() + " held only after the listener closed;"
                    + " binding beside it failed: " + beside);
        }
        portHolder = holder;
    }

    private Socket holdPort() throws IOException {
        Socket holder = new Socket();
        try {
            if (server.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
                holder.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
            return holder;
        } catch (IOException | RuntimeException e) {
            holder.close();
            throw e instanceof IOException ? (IOException) e : new IOException(e);
        }
    }

    /**
     * While on, a request whose body carries a trailing checksum ({@code x-amz-content-sha256:
     * STREAMING-...-TRAILER}, the AWS SDK's default for PutObject and UploadPart) is answered
     * {@code 400 XAmzContentSHA256Mismatch} without reaching the server, as Ceph RGW 16 answers it (measured, see
     * {@code RgwFixtureTest}); every other request is forwarded.
     */
    public void refuseTrailingChecksums(boolean on) {
        refuseTrailingChecksums = on;
    }

    /**
     * The {@code x-amz-content-sha256} header of every PUT request seen so far (PutObject, UploadPart), in order:
     * how the client sent the body ({@code STREAMING-...} for aws-chunked, {@code ...-TRAILER} with a trailing
     * checksum, {@code UNSIGNED-PAYLOAD}, or the hex SHA-256 of a plainly signed body).
     */
    public List<String> putBodyEncodings() {
        return List.copyOf(putBodyEncodings);
    }

    /** Requests refused by {@link #refuseTrailingChecksums} so far. */
    public int trailerRefusals() {
        return trailerRefusals.get();
    }

    /**
     * From now on, {@code If-None-Match} is removed from every CompleteMultipartUpload request
     * ({@code POST ...?uploadId=}) and kept on every other one: behind the proxy, a server that honours the condition
     * on PutObject only, as Ceph RGW 16.2 does (it answers 200 to a conditional completion over an existing key and
     * replaces the object). Only usable with an unauthenticated server, since the header is signed.
     */
    public void stripIfNoneMatchFromCompletes() {
        stripIfNoneMatchFromCompletes = true;
    }

    /**
     * From now on, each write of an object (PutObject, CompleteMultipartUpload) waits {@code holdMillis} before it
     * is forwarded, and loses its {@code If-None-Match} header if, when forwarded, another write of the same key has
     * arrived at the proxy and not been answered yet: a sequential second conditional write is still refused by the
     * server, racing ones all succeed. That is what a server that checks for the key, then stores, without a lock
     * does to racing conditional writers (moto 5.2.1, measured; see {@code S3RacingConditionalWritesTest}); the hold
     * makes writers released together overlap every time. Only usable with an unauthenticated server.
     */
    public void stripIfNoneMatchWhileWritesOverlap(int holdMillis) {
        if (holdMillis < 0) {
            throw new IllegalArgumentException("hold must be at least 0 ms");
        }
        overlapHoldMillis = holdMillis;
    }

    /** Every request line ("PUT /bucket/key HTTP/1.1") the proxy has read so far, in order of arrival. */
    public List<String> requestLines() {
        return List.copyOf(requestLines);
    }

    /** Removes a header (case-insensitive name) from every forwarded request. */
    public void stripRequestHeader(String name) {
        strippedHeaders.add(name.toLowerCase(Locale.ROOT));
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                open.add(client);
                pool.execute(() -> handle(client));
            } catch (IOException e) {
                if (closed || server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void handle(Socket client) {
        try (client) {
            if (refusing) {
                return;
            }
            InputStream in = client.getInputStream();
            if (blackhole) {
                while (in.read() >= 0) {
                    // swallow until the client gives up
                }
                return;
            }
            List<String> head = readHead(in);
            if (head.isEmpty()) {
                return;
            }
            requestLines.add(head.get(0));
            int hold = overlapHoldMillis;
            String written = hold >= 0 ? writtenKey(head) : null;
            if (written == null) {
                serve(client, in, head, false);
                return;
            }
            AtomicInteger writers = writesInFlight.computeIfAbsent(written, k -> new AtomicInteger());
            writers.incrementAndGet();
            try {
                if (!pause(hold)) {
                    return;
                }
                serve(client, in, head, writers.get() > 1);
            } finally {
                writers.decrementAndGet();
            }
        } catch (IOException ignored) {
            // the client or the server went away: nothing to report
        } finally {
            open.remove(client);
        }
    }

    /** Sleeps; {@code false} if interrupted (the proxy is closing). */
    private static boolean pause(int millis) {
        if (millis <= 0) {
            return true;
        }
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The path of a PutObject or CompleteMultipartUpload request; {@code null} for any other request. */
    private static String writtenKey(List<String> head) {
        String[] parts = head.get(0).split(" ");
        if (parts.length < 2) {
            return null;
        }
        String target = parts[1];
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        if (isPutObject(head) || isCompletion(head)) {
            return path;
        }
        return null;
    }

    private static boolean isCompletion(List<String> head) {
        String line = head.get(0);
        return line.startsWith("POST ") && line.contains("uploadId=");
    }

    private void serve(Socket client, InputStream in, List<String> head, boolean stripIfNoneMatch)
            throws IOException {
        if (!pause(latencyMillis)) {
            return;
        }
        if (dropFrom > 0 && isPutObject(head)) {
            int number = putObjectsSeen.incrementAndGet();
            if (number >= dropFrom && number <= dropTo) {
                forwardAndDropAnswer(client, in, head, number == dropTo);
                return;
            }
        }
        if (head.get(0).startsWith("PUT ")) {
            for (String h : head.subList(1, head.size())) {
                if (h.toLowerCase(Locale.ROOT).startsWith("x-amz-content-sha256:")) {
                    putBodyEncodings.add(h.substring(h.indexOf(':') + 1).trim());
                }
            }
        }
        if (refuseTrailingChecksums && hasTrailingChecksum(head)) {
            trailerRefusals.incrementAndGet();
            answer(client, in, head, new Fault(400, "XAmzContentSHA256Mismatch"));
            return;
        }
        Fault fault = faults.poll();
        if (fault != null) {
            answer(client, in, head, fault);
            return;
        }
        forward(client, in, head, stripIfNoneMatch || stripIfNoneMatchFromCompletes && isCompletion(head));
    }

    private static boolean hasTrailingChecksum(List<String> head) {
        for (String h : head.subList(1, head.size())) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-amz-content-sha256:") && lower.contains("trailer")) {
                return true;
            }
        }
        return false;
    }

    private void answer(Socket client, InputStream in, List<String> head, Fault fault) throws IOException {
        faultedRequests.add(head.get(0));
        boolean expectContinue = false;
        long contentLength = 0;
        for (String h : head.subList(1, head.size())) {
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("expect:") && lower.contains("100-continue")) {
                expectContinue = true;
            } else if (lower.startsWith("content-length:")) {
                contentLength = Long.parseLong(h.substring(h.indexOf(':') + 1).trim());
            }
        }
        if (!expectContinue) {
            in.skipNBytes(contentLength); // read the body so that the client sees our answer, not a reset
        }
        boolean isHead = head.get(0).startsWith("HEAD ");
        byte[] body = isHead ? new byte[0] : ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + fault.code()
                + "</Code><Message>injected by S3FaultProxy</Message><RequestId>fault-proxy</RequestId></Error>")
                .getBytes(StandardCharsets.UTF_8);
        String response = "HTTP/1.1 " + fault.status() + " " + fault.code() + "\r\n"
                + "Content-Type: application/xml\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "x-amz-request-id: fault-proxy\r\n"
                + "Connection: close\r\n\r\n";
        OutputStream out = client.getOutputStream();
        out.write(response.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    private void forward(Socket client, InputStream in, List<String> head, boolean stripIfNoneMatch)
            throws IOException {
        forwarded.incrementAndGet();
        String upstream = upstreamHead(head, name -> strippedHeaders.contains(name)
                || stripIfNoneMatch && name.equals("if-none-match"));
        try (Socket target = sendUpstream(upstream, in, null)) {
            target.getInputStream().transferTo(client.getOutputStream());
            client.getOutputStream().flush();
        } catch (SocketException ignored) {
            // one side closed
        }
    }

    /** The request line and {@code head}'s headers but those {@code skip} names (lower case), then Connection: close. */
    private static String upstreamHead(List<String> head, Predicate<String> skip) {
        StringBuilder sb = new StringBuilder(head.get(0)).append("\r\n");
        for (String h : head.subList(1, head.size())) {
            String name = h.substring(0, Math.max(0, h.indexOf(':'))).trim().toLowerCase(Locale.ROOT);
            if (!name.equals("connection") && !skip.test(name)) {
                sb.append(h).append("\r\n");
            }
        }
        return sb.append("Connection: close\r\n\r\n").toString();
    }

    /**
     * Opens a connection to the target, sends it {@code upstreamHead}, answers {@code 100 Continue} to
     * {@code continueTo} unless it is null, and copies the rest of {@code in} (the body) to the target in the
     * background.
     */
    private Socket sendUpstream(String upstreamHead, InputStream in, Socket continueTo) throws IOException {
        Socket target = new Socket(targetHost, targetPort);
        try {
            open.add(target);
            OutputStream toTarget = target.getOutputStream();
            toTarget.write(upstreamHead.getBytes(StandardCharsets.ISO_8859_1));
            toTarget.flush();
            if (continueTo != null) {
                continueTo.getOutputStream().write("HTTP/1.1 100 Continue\r\n\r\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                continueTo.getOutputStream().flush();
            }
            pool.execute(() -> {
                try {
                    in.transferTo(toTarget);
                } catch (IOException ignored) {
                    // connection closed
                }
            });
            return target;
        } catch (IOException | RuntimeException e) {
            target.close();
            throw e;
        }
    }

    private static boolean isPutObject(List<String> head) {
        String line = head.get(0);
        if (!line.startsWith("PUT ") || line.contains("uploadId=")) {
            return false;
        }
        for (String h : head.subList(1, head.size())) {
            if (h.toLowerCase(Locale.ROOT).startsWith("x-amz-copy-source:")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Forwards the request (answering an {@code Expect: 100-continue} itself, so that the client sends its body),
     * waits for the server's complete answer, throws it away and closes the client's connection.
     */
    private void forwardAndDropAnswer(Socket client, InputStream in, List<String> head, boolean last)
            throws IOException {
        forwarded.incrementAndGet();
        boolean expectContinue = false;
        for (String h : head.subList(1, head.size())) {
            String lower = h.toLowerCase(Locale.ROOT);
            expectContinue |= lower.startsWith("expect:") && lower.contains("100-continue");
        }
        String upstream = upstreamHead(head, name -> name.equals("expect"));
        try (Socket target = sendUpstream(upstream, in, expectContinue ? client : null)) {
            target.getInputStream().transferTo(OutputStream.nullOutputStream()); // the server carried it out
        } catch (SocketException ignored) {
            // one side closed
        } finally {
            droppedAnswers.incrementAndGet();
            if (last) {
                faults.addAll(afterDrops);
                dropFrom = 0;
            }
            client.close(); // no answer: the client sees the connection end
        }
    }

    /** The request line and header lines, without the blank line; empty at end of stream. */
    private static List<String> readHead(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int prev = -1;
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n' && prev == '\r') {
                byte[] bytes = line.toByteArray();
                String s = new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
                if (s.isEmpty()) {
                    return lines;
                }
                lines.add(s);
                line.reset();
            } else {
                line.write(b);
            }
            prev = b;
        }
        return List.of();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(portHolder);
        closeListenerAndConnections();
        pool.shutdownNow();
    }

    /** Closes the listener and every connection open through it. */
    private void closeListenerAndConnections() {
        closeQuietly(server);
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

}
