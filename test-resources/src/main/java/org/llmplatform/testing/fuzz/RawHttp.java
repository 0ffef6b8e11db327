package org.llmplatform.testing.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, one request per connection. Unlike the JDK's and rest-assured's clients it
 * sends whatever it is given (invalid percent-encoding, raw non-ASCII, duplicated headers, 100 KB request
 * lines), which is what a malformed request is.
 */
final class RawHttp {

    /** Enough of an answer to judge it: a success's body is not waited for, it may be a stream. */
    record Reply(int status, String contentType, byte[] body) {

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final String host;
    private final int port;
    private final Duration timeout;

    RawHttp(String host, int port, Duration timeout) {
        this.host = host;
        this.port = port;
        this.timeout = timeout;
    }

    Reply send(MalformedRequest request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            try {
                write(socket.getOutputStream(), request);
            } catch (IOException answeredEarly) {
                // The server may answer (and close) before it read the whole request, say on a too-long line.
            }
            return read(socket.getInputStream());
        } catch (SocketTimeoutException hang) {
            throw new IOException("no complete answer within " + timeout.toSeconds() + " s", hang);
        }
    }

    private void write(OutputStream out, MalformedRequest request) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        head.write((request.method() + " ").getBytes(StandardCharsets.US_ASCII));
        head.write(request.target());
        head.write((" HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nConnection: close\r\n").getBytes(StandardCharsets.US_ASCII));
        boolean framed = false;
        for (MalformedRequest.Header header : request.headers()) {
            head.write((header.name() + ": ").getBytes(StandardCharsets.US_ASCII));
            head.write(header.value());
            head.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            String name = header.name().toLowerCase(Locale.ROOT);
            framed |= name.equals("content-length") || name.equals("transfer-encoding");
        }
        if (!framed && (request.body().length > 0 || !request.method().equals("GET") && !request.method().equals("DELETE"))) {
            head.write(("Content-Length: " + request.body().length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        head.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.write(head.toByteArray());
        out.write(request.body());
        out.flush();
    }

    private static Reply read(InputStream socketIn) throws IOException {
        var in = new java.io.BufferedInputStream(socketIn);
        String statusLine;
        int status;
        long contentLength = -1;
        boolean chunked = false;
        String contentType = null;
        do {
            statusLine = line(in);
            if (statusLine == null) {
                throw new IOException("the connection closed without an answer");
            }
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
                throw new IOException("not an HTTP status line: " + statusLine);
            }
            status = Integer.parseInt(parts[1]);
            String header;
            while ((header = line(in)) != null && !header.isEmpty()) {
                int colon = header.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> contentLength = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    case "content-type" -> contentType = value;
                    default -> { }
                }
            }
        } while (status >= 100 && status < 200);
        if (status < 400) {
            return new Reply(status, contentType, new byte[0]);
        }
        byte[] body;
        if (chunked) {
            body = chunks(in);
        } else if (contentLength >= 0) {
            body = in.readNBytes((int) contentLength);
        } else {
            body = in.readAllBytes();
        }
        return new Reply(status, contentType, body);
    }

    private static byte[] chunks(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line(in);
            if (size == null) {
                return body.toByteArray();
            }
            int semicolon = size.indexOf(';');
            int length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (length == 0) {
                return body.toByteArray();
            }
            body.write(in.readNBytes(length));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                break;
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        if (b == -1 && line.size() == 0) {
            return null;
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
