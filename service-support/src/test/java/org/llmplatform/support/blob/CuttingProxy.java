package org.llmplatform.support.blob;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay in front of a server that drops connections mid-request: a connection whose client has sent
 * more than {@code cutAfterBytes} is closed on both sides, for the first {@code cuts} connections that get
 * that far. Requests smaller than that pass. What clients send is kept (up to {@link #KEPT_BYTES} per connection) for
 * a test to read.
 */
final class CuttingProxy implements AutoCloseable {

    static final int KEPT_BYTES = 16 * 1024 * 1024;

    private final ServerSocket listener;
    private final int upstreamPort;
    private final long cutAfterBytes;
    private final AtomicInteger cutsLeft;
    private final AtomicInteger cutsMade = new AtomicInteger();
    private final List<ByteArrayOutputStream> sentByClients = new CopyOnWriteArrayList<>();

    CuttingProxy(int upstreamPort, long cutAfterBytes, int cuts) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstreamPort;
        this.cutAfterBytes = cutAfterBytes;
        this.cutsLeft = new AtomicInteger(cuts);
        Thread acceptor = new Thread(this::accept, "cutting-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    int cutsMade() {
        return cutsMade.get();
    }

    /** The bytes clients sent so far as ISO-8859-1 text (HTTP heads stay readable), each connection's on lines of its own. */
    String sentByClients() {
        StringBuilder sent = new StringBuilder();
        for (ByteArrayOutputStream connection : sentByClients) {
            synchronized (connection) {
                sent.append(connection.toString(StandardCharsets.ISO_8859_1)).append("\r\n");
            }
        }
        return sent.toString();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                relay(client, server, true);
                relay(server, client, false);
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void relay(Socket from, Socket to, boolean upload) {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        if (upload) {
            sentByClients.add(kept);
        }
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            long sent = 0;
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    sent += read;
                    if (upload) {
                        keep(kept, buffer, read);
                    }
                    if (upload && sent > cutAfterBytes && cutsLeft.getAndDecrement() > 0) {
                        cutsMade.incrementAndGet();
                        break;
                    }
                }
            } catch (IOException closed) {
                // the other direction closed the pair
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "cutting-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private static void keep(ByteArrayOutputStream kept, byte[] buffer, int length) {
        synchronized (kept) {
            kept.write(buffer, 0, Math.min(length, KEPT_BYTES - kept.size()));
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
