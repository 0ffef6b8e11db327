package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void freeDistinctPortsPass() throws Exception {
        int kafka = freePortPair();
        Ports.requireFree(Map.of("Kafka", kafka, "Kafka controller", kafka + 1));
    }

    @Test
    void aPortGivenToTwoServersIsRefusedNamingBoth() throws Exception {
        int kafka = freePortPair();
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("Kafka", kafka);
        ports.put("Kafka controller", kafka + 1);
        ports.put("tracing-service", kafka + 1);

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Ports.requireFree(ports));
        assertEquals("Port " + (kafka + 1) + " is given to both Kafka controller and tracing-service: choose another port"
                + " for one of them (./platform --help)", refused.getMessage());
    }

    @Test
    void aTakenPortIsRefusedNamingItsUser() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> Ports.requireFree(Map.of("PostgreSQL", taken.getLocalPort())));
            assertEquals("Port " + taken.getLocalPort() + " (PostgreSQL) is already in use: stop whatever listens there"
                    + " or choose another port (./platform --help)", refused.getMessage());
        }
    }

    /** A free port whose next port is free too, as the Kafka port must be. */
    private static int freePortPair() throws Exception {
        for (;;) {
            int port;
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            try (ServerSocket next = new ServerSocket(port + 1)) {
                return port;
            } catch (IOException taken) {
                // try another pair
            }
        }
    }
}
