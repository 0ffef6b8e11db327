package org.llmplatform.localstack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Command lines for child JVMs, started with the same Java as the launcher. */
final class Java {

    static String executable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code mainClass} on the launcher's own class path (which carries Kafka). */
    static List<String> command(List<String> jvmOptions, String mainClass, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(Arrays.asList(arguments));
        return command;
    }

    private Java() {
    }
}
