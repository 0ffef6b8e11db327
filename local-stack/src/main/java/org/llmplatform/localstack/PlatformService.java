package org.llmplatform.localstack;

import java.util.Arrays;
import java.util.Optional;

/** The four services and the console (one origin for their APIs and the web pages), their modules and default ports. */
enum PlatformService {
    TRACING("tracing-service", 8080, "--tracing-port"),
    INFERENCE("inference-gateway", 8081, "--inference-port"),
    TRAINING("training-service", 8082, "--training-port"),
    AUTOMATION("automation-service", 8083, "--automation-port"),
    CONSOLE("console", 8000, "--console-port");

    private final String module;
    private final int defaultPort;
    private final String portOption;

    PlatformService(String module, int defaultPort, String portOption) {
        this.module = module;
        this.defaultPort = defaultPort;
        this.portOption = portOption;
    }

    String module() {
        return module;
    }

    int defaultPort() {
        return defaultPort;
    }

    /** The launcher's option naming this service's port, e.g. {@code --inference-port}. */
    String portOption() {
        return portOption;
    }

    static Optional<PlatformService> forPortOption(String option) {
        return Arrays.stream(values()).filter(service -> service.portOption.equals(option)).findFirst();
    }
}
