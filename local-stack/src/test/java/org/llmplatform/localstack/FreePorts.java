package org.llmplatform.localstack;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports nothing listens on, for a stack started by a test beside the others on this machine. */
final class FreePorts {

    private FreePorts() {
    }

    static int any() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The broker's controller listens on the next port, so both must be free. */
    static int kafkaPair() throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            int port = any();
            try (ServerSocket controller = new ServerSocket(port + 1)) {
                return port;
            } catch (IOException taken) {
                // try another pair
            }
        }
        throw new IOException("no two adjacent free ports");
    }
}
