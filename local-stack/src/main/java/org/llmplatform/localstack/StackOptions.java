package org.llmplatform.localstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The command line of the local stack. */
record StackOptions(Path dataDirectory, boolean wipe, int postgresPort, int kafkaPort, Map<PlatformService, Integer> servicePorts,
        int consoleHttpsPort, Optional<Path> model, Optional<Path> tokenizer, BlobBackend blobStore, int s3Port,
        List<UpstreamOption> upstreams, int replicas) {

    /** Replica k (counted from 0) of a service listens on the service's port + k × this. */
    static final int REPLICA_PORT_STEP = 100;
    static final int MAX_REPLICAS = 9;

    /** Where the services keep blobs: files in the data folder, or a bucket of an S3 server (S3Proxy) started beside them. */
    enum BlobBackend {
        FILES, S3
    }

    static final String USAGE = """
            Usage: ./platform [options]
              --wipe                 delete the data folder first (all data, keys included)
              --data-dir DIR         where data, logs and keys live (default: .local-data)
              --postgres-port N      PostgreSQL port (default 15432)
              --kafka-port N         Kafka port (default 19092; the controller takes N+1)
              --tracing-port N       tracing-service port (default 8080)
              --inference-port N     inference-gateway port (default 8081)
              --training-port N      training-service port (default 8082)
              --automation-port N    automation-service port (default 8083)
              --console-port N       console port: the web pages and every API on one origin (default 8000)
              --replicas N           run N replicas of each service (1-9, default 1) on the one PostgreSQL
                                     and Kafka; replica k listens on the service's port + 100*k, and the
                                     console spreads each API over them (a stopped one is passed over)
              --console-https-port N the console over HTTPS, with a self-signed certificate for localhost:
                                     where the Weave TypeScript SDK's call links open (default 8443)
              --model FILE           a llama2.c checkpoint for the gateway's embedded engine and the
                                     embedded trainer, served under its file name without extension
                                     (needs --tokenizer; default: models/stories260K.bin, shipped)
              --tokenizer FILE       the checkpoint's llama2.c tokenizer (default: models/tok512.bin)
              --no-model             serve no model and train none
              --blob-store files|s3  where blobs (files, trajectories, checkpoints) live: files in the
                                     data folder (default), or a bucket of an S3 server (S3Proxy) started
                                     beside PostgreSQL and Kafka, as clusters keep them
              --s3-port N            the S3 server's port with --blob-store s3 (default 19000)
              --upstream ID=URL[,model=NAME][,key-env=VAR]
                                     serve model ID from an OpenAI-compatible server (Ollama, vLLM, a
                                     hosted API) at URL (its base URL with /v1), asking it for NAME
                                     (default ID) with the key in environment variable VAR; repeatable.
                                     e.g. --upstream ollama=http://localhost:11434/v1,model=llama3.2
            """;

    /** The model the repository ships (models/README.md), served when no other is named. */
    static final String DEFAULT_MODEL = "models/stories260K.bin";
    static final String DEFAULT_TOKENIZER = "models/tok512.bin";

    static StackOptions parse(String[] args, Path home) {
        return parse(args, home, System::getenv);
    }

    /** {@code environment}: where an upstream's {@code key-env} variable is read (null: unset). */
    static StackOptions parse(String[] args, Path home, UnaryOperator<String> environment) {
        Path dataDirectory = home.resolve(".local-data");
        boolean wipe = false;
        int postgresPort = 15432;
        int kafkaPort = 19092;
        int consoleHttpsPort = 8443;
        Optional<Path> model = Optional.empty();
        Optional<Path> tokenizer = Optional.empty();
        boolean noModel = false;
        BlobBackend blobStore = BlobBackend.FILES;
        int s3Port = 19000;
        int replicas = 1;
        Map<String, UpstreamOption> upstreams = new LinkedHashMap<>();
        Map<PlatformService, Integer> servicePorts = new LinkedHashMap<>();
        for (PlatformService service : PlatformService.values()) {
            servicePorts.put(service, service.defaultPort());
        }
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--wipe" -> wipe = true;
                case "--data-dir" -> dataDirectory = Path.of(value(args, ++i, option)).toAbsolutePath();
                case "--postgres-port" -> postgresPort = port(args, ++i, option);
                case "--kafka-port" -> kafkaPort = port(args, ++i, option);
                case "--console-https-port" -> consoleHttpsPort = port(args, ++i, option);
                case "--model" -> model = Optional.of(existingFile(args, ++i, option));
                case "--tokenizer" -> tokenizer = Optional.of(existingFile(args, ++i, option));
                case "--no-model" -> noModel = true;
                case "--blob-store" -> blobStore = blobBackend(value(args, ++i, option));
                case "--s3-port" -> s3Port = port(args, ++i, option);
                case "--replicas" -> replicas = replicas(value(args, ++i, option));
                case "--upstream" -> {
                    UpstreamOption upstream = UpstreamOption.parse(value(args, ++i, option), environment);
                    if (upstreams.putIfAbsent(upstream.id(), upstream) != null) {
                        throw new UsageException("--upstream " + upstream.id() + " is named twice");
                    }
                }
                case "--help", "-h" -> throw new UsageException("");
                default -> {
                    PlatformService service = PlatformService.forPortOption(option)
                            .orElseThrow(() -> new UsageException("Unknown option: " + option));
                    servicePorts.put(service, port(args, ++i, option));
                }
            }
        }
        if (model.isPresent() != tokenizer.isPresent()) {
            throw new UsageException("--model and --tokenizer go together");
        }
        if (noModel && model.isPresent()) {
            throw new UsageException("--no-model and --model: choose one");
        }
        if (!noModel && model.isEmpty()) {
            model = Optional.of(shippedFile(home, DEFAULT_MODEL));
            tokenizer = Optional.of(shippedFile(home, DEFAULT_TOKENIZER));
        }
        if (model.isPresent() && upstreams.containsKey(modelId(model.get()))) {
            throw new UsageException("--upstream " + modelId(model.get()) + " has the id of the engine's model: choose another");
        }
        return new StackOptions(dataDirectory, wipe, postgresPort, kafkaPort, servicePorts, consoleHttpsPort, model, tokenizer,
                blobStore, s3Port, List.copyOf(upstreams.values()), replicas);
    }

    /** The port of replica {@code index} (from 0) of a service; the console has one. */
    int port(PlatformService service, int index) {
        return servicePorts.get(service) + REPLICA_PORT_STEP * index;
    }

    /** How many replicas of a service run: the console, the one origin, runs once. */
    int replicasOf(PlatformService service) {
        return service == PlatformService.CONSOLE ? 1 : replicas;
    }

    private static int replicas(String value) {
        try {
            int replicas = Integer.parseInt(value);
            if (replicas >= 1 && replicas <= MAX_REPLICAS) {
                return replicas;
            }
        } catch (NumberFormatException notANumber) {
            // answered below
        }
        throw new UsageException("--replicas must be a number from 1 to " + MAX_REPLICAS + ", got '" + value + "'");
    }

    /** The model's id in the gateway: its file name without extension ("stories260K.bin" → "stories260K"). */
    Optional<String> modelId() {
        return model.map(StackOptions::modelId);
    }

    private static String modelId(Path checkpoint) {
        return checkpoint.getFileName().toString().replaceFirst("\\.[^.]*$", "");
    }

    private static BlobBackend blobBackend(String value) {
        return switch (value) {
            case "files" -> BlobBackend.FILES;
            case "s3" -> BlobBackend.S3;
            default -> throw new UsageException("--blob-store is files or s3, got '" + value + "'");
        };
    }

    private static Path shippedFile(Path home, String path) {
        Path file = home.resolve(path);
        if (!Files.isRegularFile(file)) {
            throw new UsageException(path + " is missing from " + home + " (git checkout -- models restores it),"
                    + " or choose another model with --model/--tokenizer, or none with --no-model");
        }
        return file;
    }

    private static Path existingFile(String[] args, int index, String option) {
        Path file = Path.of(value(args, index, option)).toAbsolutePath();
        if (!Files.isRegularFile(file)) {
            throw new UsageException(option + ": no such file " + file);
        }
        return file;
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[index];
    }

    private static int port(String[] args, int index, String option) {
        String value = value(args, index, option);
        try {
            int port = Integer.parseInt(value);
            if (port < 1 || port > 65535) {
                throw new UsageException(option + " must be a port between 1 and 65535, got " + value);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be a port number, got '" + value + "'");
        }
    }

    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
