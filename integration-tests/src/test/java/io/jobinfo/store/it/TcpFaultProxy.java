package io.jobinfo.store.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy that injects network faults in front of a real server (the S3 server, the HDFS NameNode): added latency
 * per forwarded chunk, connection resets (RST), and a blackhole (bytes are swallowed, nothing is answered). This is
 * the one fake of the suite, allowed because no real part produces these faults on demand; the server behind it is
 * real and untouched.
 */
final class TcpFaultProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicLong upstreamBytes = new AtomicLong();
    private volatile int latencyMillis;
    private volatile boolean blackhole;
    private volatile boolean resetting;
    private volatile boolean closed;

    TcpFaultProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "fault-proxy-" + server.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    /** Delay added before each forwarded chunk, both directions. */
    void latency(int millis) {
        this.latencyMillis = millis;
    }

    /** While on: traffic is swallowed in both directions and new connections are accepted but never served. */
    void blackhole(boolean on) {
        this.blackhole = on;
    }

    /** While on: every open connection is reset now, and every new one right after it is accepted. */
    void resets(boolean on) {
        this.resetting = on;
        if (on) {
            resetAll();
        }
    }

    /** Back to a plain pass-through. */
    void heal() {
        latencyMillis = 0;
        blackhole = false;
        resetting = false;
    }

    int acceptedConnections() {
        return accepted.get();
    }

    /** Bytes forwarded from clients to the server so far (request heads and bodies). */
    long bytesToServer() {
        return upstreamBytes.get();
    }

    private void resetAll() {
        for (Socket s : sockets) {
            reset(s);
        }
    }

    private void reset(Socket s) {
        try {
            s.setSoLinger(true, 0); // close() sends RST
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
        sockets.remove(s);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            accepted.incrementAndGet();
            sockets.add(client);
            if (resetting) {
                reset(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 5000);
            } catch (IOException e) {
                reset(client);
                continue;
            }
            sockets.add(upstream);
            pump(client, upstream, true);
            pump(upstream, client, false);
        }
    }

    private void pump(Socket from, Socket to, boolean toServer) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (blackhole) {
                        continue; // swallowed
                    }
                    int delay = latencyMillis;
                    if (delay > 0) {
                        Thread.sleep(delay);
                    }
                    if (resetting) {
                        break;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                    if (toServer) {
                        upstreamBytes.addAndGet(n);
                    }
                }
            } catch (Exception ignored) {
                // a side closed or was reset
            } finally {
                if (resetting) {
                    reset(from);
                    reset(to);
                } else {
                    close(from);
                    close(to);
                }
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
        sockets.remove(s);
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        for (Socket s : sockets) {
            close(s);
        }
    }
}
