package org.llmplatform.localstack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;

/**
 * Refuses to start anything when a port the stack needs is taken, or given to two of its servers (Kafka's
 * controller takes the Kafka port + 1, which an option may have given to a service), naming the port and its users.
 */
final class Ports {

    static void requireFree(Map<String, Integer> portsByUser) {
        Map<Integer, String> userOfPort = new HashMap<>();
        portsByUser.forEach((user, port) -> {
            String other = userOfPort.putIfAbsent(port, user);
            if (other != null) {
                throw new IllegalStateException("Port " + port + " is given to both " + other + " and " + user
                        + ": choose another port for one of them (./platform --help)");
            }
        });
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
