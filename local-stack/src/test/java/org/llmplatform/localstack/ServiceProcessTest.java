package org.llmplatform.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceProcessTest {

    @Test
    void theGatewayAndTheTracingServiceGetTheOptimisingCompilerWhileTheOtherServicesStayOnC1() {
        for (PlatformService service : List.of(PlatformService.INFERENCE, PlatformService.TRACING)) {
            assertFalse(ServiceProcess.jvmOptions(service).stream().anyMatch(option -> option.startsWith("-XX:TieredStopAtLevel")),
                    service.module());
        }
        for (PlatformService service : List.of(PlatformService.TRAINING, PlatformService.AUTOMATION)) {
            assertTrue(ServiceProcess.jvmOptions(service).contains("-XX:TieredStopAtLevel=1"), service.module());
        }
    }

    @Test
    void everyServiceHasOneBoundedHeapAndTheSerialCollector() {
        for (PlatformService service : PlatformService.values()) {
            List<String> options = ServiceProcess.jvmOptions(service);
            assertEquals(1, options.stream().filter(option -> option.startsWith("-Xmx")).count(), service.module());
            assertTrue(options.contains("-XX:+UseSerialGC"), service.module());
        }
    }

    /** Benchmarks start the gateway with exactly these options, read from this entry point. */
    @Test
    void theEntryPointPrintsAServicesOptionsOnePerLine() {
        PrintStream standardOut = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            ServiceProcess.main(new String[] {"inference-gateway"});
        } finally {
            System.setOut(standardOut);
        }
        assertEquals(ServiceProcess.jvmOptions(PlatformService.INFERENCE),
                List.of(printed.toString(StandardCharsets.UTF_8).split("\n")));
    }
}
