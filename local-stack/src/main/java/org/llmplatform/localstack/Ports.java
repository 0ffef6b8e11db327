package org.llmplatform.localstack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;

/** Refuses to start anything when a port the stack needs is taken, naming the port and its user. */
final class Ports {

    static void requireFree(Map<String, Integer> portsByUser) {
        portsByUser.forEach((user, port) -> {
            try (ServerSocket socket = new ServerSocket()) {
                // Like the servers themselves: connections of an earlier run lingering in TIME_WAIT are no conflict.
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(port));
            } catch (IOException taken) {
                throw new IllegalStateException("Port " + port + " (" + user + ") is already in use: stop whatever listens there"
                        + " or choose another port (./platform --help)");
            }
        });
    }

    private Ports() {
    }
}
