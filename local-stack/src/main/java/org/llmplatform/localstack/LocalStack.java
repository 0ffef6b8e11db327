package org.llmplatform.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.llmplatform.engines.KafkaTopics;
import org.llmplatform.engines.LocalhostKeyStore;
import org.llmplatform.engines.PostgresServer;
import org.llmplatform.engines.S3Server;

/**
 * The platform's main command: PostgreSQL, a Kafka broker and the four services on this machine,
 * with their data under one folder. Ctrl-C or SIGTERM stops everything it started.
 */
public final class LocalStack {

    /**
     * How long each server may take to become ready: nine JVMs starting at once (--replicas 2) on a busy laptop took over
     * 3 minutes (env PLATFORM_READY_TIMEOUT_S changes it).
     */
    private static final long READY_TIMEOUT_SECONDS = Long.parseLong(System.getenv().getOrDefault("PLATFORM_READY_TIMEOUT_S", "420"));
    /**
     * Partitions of each topic, at least as many as a consumer group has members: a consumer group gives a partition
     * to one member, so a replica beyond the partitions (--replicas, or automation-service/bench/from-source.sh
     * -Dbench.replicas=2 starting more) would sit idle.
     */
    static final int TOPIC_PARTITIONS = 4;
    static final String BLOB_BUCKET = "llm-platform-blobs";

    private final StackOptions options;
    private final Path home;
    private final Path logs;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Each service's replicas, replica 0 first. */
    private final Map<PlatformService, List<ChildProcess>> services = new EnumMap<>(PlatformService.class);
    private PostgresServer postgres;
    private ChildProcess kafka;
    private S3Server s3;
    private volatile boolean stopping;
    private String automationEncryptionKey;
    private Path consoleKeyStore;

    LocalStack(StackOptions options, Path home) {
        this.options = options;
        this.home = home;
        this.logs = options.dataDirectory().resolve("logs");
    }

    public static void main(String[] args) throws InterruptedException {
        Path home = home();
        StackOptions options;
        try {
            options = StackOptions.parse(args, home);
        } catch (StackOptions.UsageException usage) {
            System.out.print((usage.getMessage().isEmpty() ? "" : usage.getMessage() + "\n") + StackOptions.USAGE);
            System.exit(usage.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        LocalStack stack = new LocalStack(options, home);
        Runtime.getRuntime().addShutdownHook(new Thread(stack::stop, "local-stack-stop"));
        try {
            stack.start();
        } catch (Exception e) {
            System.err.println("\nThe platform did not start: " + e.getMessage());
            System.exit(1);
        }
        stack.watch();
    }

    /** Starts everything and answers the development API key once every service is ready. */
    String start() throws IOException, InterruptedException {
        long started = System.nanoTime();
        Path data = options.dataDirectory();
        if (options.wipe()) {
            deleteRecursively(data);
            System.out.println("Wiped " + data);
        }
        ServiceProcess.requireBuilt(home);
        Ports.requireFree(portsToClaim());
        Files.createDirectories(logs);

        System.out.println("Starting PostgreSQL and Kafka (data in " + data + ")");
        postgres = PostgresServer.startPersistent(data.resolve("postgres"), options.postgresPort());
        String bootstrapServers = "localhost:" + options.kafkaPort();
        kafka = KafkaBroker.start(data, options.kafkaPort(), logs);
        KafkaBroker.awaitReady(kafka, bootstrapServers, READY_TIMEOUT_SECONDS);
        KafkaTopics.createMissing(bootstrapServers, Math.max(TOPIC_PARTITIONS, options.replicas()));
        if (options.blobStore() == StackOptions.BlobBackend.S3) {
            System.out.println("Starting the S3 server (S3Proxy, buckets in " + data.resolve("s3") + ")");
            s3 = S3Server.startPersistent(data.resolve("s3"), options.s3Port());
        }

        String adminKey = DevCredentials.bootstrapAdminKey(data);
        automationEncryptionKey = DevCredentials.automationEncryptionKey(data);
        consoleKeyStore = LocalhostKeyStore.createIfMissing(data.resolve("console-localhost.p12"));
        System.out.println("Starting the services (logs in " + logs + ")");
        for (PlatformService service : PlatformService.values()) {
            List<ChildProcess> replicas = new ArrayList<>();
            for (int index = 0; index < options.replicasOf(service); index++) {
                replicas.add(ServiceProcess.start(service, replicaName(service, index), home,
                        serviceEnvironment(service, index, bootstrapServers, adminKey), systemProperties(service), logs));
            }
            services.put(service, replicas);
        }
        for (PlatformService service : PlatformService.values()) {
            for (int index = 0; index < options.replicasOf(service); index++) {
                ServiceProcess.awaitReady(services.get(service).get(index), readinessUri(service, index), http, READY_TIMEOUT_SECONDS);
            }
        }
        String devKey = DevCredentials.devApiKey(data, baseUri(PlatformService.TRACING), adminKey, http);
        printSummary(devKey, Duration.ofNanos(System.nanoTime() - started));
        return devKey;
    }

    private Map<String, Integer> portsToClaim() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("PostgreSQL", options.postgresPort());
        ports.put("Kafka", options.kafkaPort());
        ports.put("Kafka controller", options.kafkaPort() + 1);
        if (options.blobStore() == StackOptions.BlobBackend.S3) {
            ports.put("S3", options.s3Port());
        }
        for (PlatformService service : PlatformService.values()) {
            for (int index = 0; index < options.replicasOf(service); index++) {
                ports.put(replicaName(service, index), options.port(service, index));
            }
        }
        ports.put("console (HTTPS)", options.consoleHttpsPort());
        return ports;
    }

    /** A replica's name, its log's and its data folder's: the module's for the first, then {@code tracing-service-2}, … */
    private static String replicaName(PlatformService service, int index) {
        return index == 0 ? service.module() : service.module() + "-" + (index + 1);
    }

    private Map<String, String> serviceEnvironment(PlatformService service, int index, String bootstrapServers, String adminKey) {
        Map<String, String> environment = new HashMap<>();
        environment.put("QUARKUS_HTTP_PORT", String.valueOf(options.port(service, index)));
        environment.put("QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl());
        environment.put("QUARKUS_DATASOURCE_REACTIVE_URL", postgres.reactiveUrl());
        environment.put("QUARKUS_DATASOURCE_USERNAME", PostgresServer.USER);
        environment.put("QUARKUS_DATASOURCE_PASSWORD", PostgresServer.PASSWORD);
        if (options.replicas() > 1) {
            // Every replica migrates and opens its pools at once: on a busy machine a connection took over the default 5 s.
            environment.put("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "60S");
        }
        environment.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        environment.put("PLATFORM_AUTH_BOOTSTRAP_ADMIN_KEY", adminKey);
        environment.put("PLATFORM_DATA_DIR", options.dataDirectory().resolve(replicaName(service, index)).toString());
        // One content-addressed store for all: the gateway reads the adapters the training-service writes.
        if (s3 == null) {
            environment.put("PLATFORM_BLOB_ROOT", options.dataDirectory().resolve("blobs").toString());
        } else {
            s3.blobStoreConfig(BLOB_BUCKET).forEach((key, value) -> environment.put(environmentName(key), value));
        }
        for (PlatformService other : PlatformService.values()) {
            environment.put("PLATFORM_" + other.name() + "_URL", serviceUrl(service, other));
        }
        if (service == PlatformService.CONSOLE) {
            // The console's default TLS configuration, which its HTTP server takes for the HTTPS port.
            environment.put("QUARKUS_HTTP_SSL_PORT", String.valueOf(options.consoleHttpsPort()));
            environment.put("QUARKUS_TLS_KEY_STORE_P12_PATH", consoleKeyStore.toString());
            environment.put("QUARKUS_TLS_KEY_STORE_P12_PASSWORD", LocalhostKeyStore.PASSWORD);
        }
        if (service == PlatformService.INFERENCE) {
            options.upstreams().forEach(upstream -> upstream.environment(environment));
        }
        if (service == PlatformService.AUTOMATION) {
            environment.put("AUTOMATION_SECRETS_ACTIVE_KEY_ID", "local");
            environment.put("AUTOMATION_SECRETS_KEYS_LOCAL", automationEncryptionKey);
            // On a laptop, webhook receivers usually run on this machine too.
            environment.put("AUTOMATION_DELIVERY_ALLOW_HTTP", "true");
            environment.put("AUTOMATION_DELIVERY_ALLOWED_NETWORKS", "127.0.0.1/32,::1/128");
        }
        return environment;
    }

    /** The environment variable MicroProfile Config reads for a property: {@code platform.blob.s3.path-style} → {@code PLATFORM_BLOB_S3_PATH_STYLE}. */
    private static String environmentName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /**
     * The model given with --model: served by the gateway's engine and trained by the training-service's embedded
     * trainer. Model ids keep their case only as system properties (environment variable names lose it).
     */
    private List<String> systemProperties(PlatformService service) {
        List<String> properties = new ArrayList<>(modelProperties(service));
        if (service == PlatformService.INFERENCE) {
            options.upstreams().forEach(upstream -> properties.addAll(upstream.gatewayProperties()));
        }
        return properties;
    }

    private List<String> modelProperties(PlatformService service) {
        if (options.modelId().isEmpty()) {
            return List.of();
        }
        String modelId = options.modelId().get();
        return switch (service) {
            case INFERENCE -> List.of("-Dgateway.models.\"" + modelId + "\".checkpoint=" + options.model().get(),
                    "-Dgateway.models.\"" + modelId + "\".tokenizer=" + options.tokenizer().get());
            case TRAINING -> List.of("-Dtraining.base-models=" + modelId, "-Dtraining.trainer.base-model=" + modelId,
                    "-Dtraining.trainer.checkpoint=" + options.model().get(), "-Dtraining.trainer.tokenizer=" + options.tokenizer().get());
            default -> List.of();
        };
    }

    URI baseUri(PlatformService service) {
        return baseUri(service, 0);
    }

    private URI baseUri(PlatformService service, int index) {
        return URI.create("http://localhost:" + options.port(service, index));
    }

    /**
     * Where {@code service} reaches {@code other}: the console, the one origin, spreads requests over the
     * replicas of each (all of their URLs, comma-separated); with several replicas the services go through
     * the console too, as they would through a Kubernetes Service, so that a stopped replica costs them nothing.
     */
    private String serviceUrl(PlatformService service, PlatformService other) {
        if (service == PlatformService.CONSOLE) {
            return String.join(",", IntStream.range(0, options.replicasOf(other))
                    .mapToObj(index -> baseUri(other, index).toString()).toList());
        }
        return (options.replicasOf(other) > 1 ? baseUri(PlatformService.CONSOLE) : baseUri(other)).toString();
    }

    /** The console over HTTPS: the scheme the Weave TypeScript SDK writes its call links with. */
    URI consoleHttpsUri() {
        return URI.create("https://localhost:" + options.consoleHttpsPort());
    }

    private URI readinessUri(PlatformService service, int index) {
        return baseUri(service, index).resolve("/q/health/ready");
    }

    private void printSummary(String devKey, Duration elapsed) {
        StringBuilder summary = new StringBuilder("\nThe platform is ready (" + elapsed.toMillis() / 1000.0 + " s):\n");
        for (PlatformService service : PlatformService.values()) {
            String about = service == PlatformService.CONSOLE ? "(the web console, and every API on this one origin; also "
                    + consoleHttpsUri() + ", self-signed)"
                    : "(API docs: " + baseUri(service) + "/q/swagger-ui)";
            String urls = String.join(" ", IntStream.range(0, options.replicasOf(service))
                    .mapToObj(index -> baseUri(service, index).toString()).toList());
            summary.append(String.format("  %-20s %s   %s%n", service.module(), urls, about));
        }
        summary.append(String.format("  %-20s %s%n", "PostgreSQL", postgres.jdbcUrl() + " (user " + PostgresServer.USER + ")"));
        summary.append(String.format("  %-20s %s%n", "Kafka", "localhost:" + options.kafkaPort()));
        if (s3 != null) {
            summary.append(String.format("  %-20s %s%n", "S3 (blobs)", s3.endpoint() + " bucket " + BLOB_BUCKET + " (key " + S3Server.ACCESS_KEY
                    + ", secret " + S3Server.SECRET_KEY + ")"));
        }
        summary.append(String.format("  %-20s %s%n", "model", options.modelId()
                .map(id -> id + " from " + options.model().get() + ", served by the gateway's engine, trained by the embedded trainer")
                .orElse("none (--no-model)")));
        options.upstreams().forEach(upstream -> summary.append(String.format("  %-20s %s%n", "upstream", upstream.describe())));
        summary.append("\nDevelopment API key (user '").append(DevCredentials.DEV_USER).append("'): ").append(devKey)
                .append("\n  also in ").append(options.dataDirectory().resolve("dev-api-key"))
                .append("\n  use it as 'Authorization: Bearer <key>'.\n\n");
        GettingStarted.lines(baseUri(PlatformService.CONSOLE), consoleHttpsUri(), devKey, options.modelId())
                .forEach(line -> summary.append(line).append('\n'));
        summary.append("\nPress Ctrl-C to stop everything.\n");
        System.out.println(summary);
    }

    /** Keeps the launcher alive while the stack runs, restarting whatever dies until Ctrl-C or SIGTERM. */
    private void watch() throws InterruptedException {
        Supervisor supervisor = new Supervisor(http);
        supervisor.watch(kafka, Optional.empty());
        services.forEach((service, replicas) -> {
            for (int index = 0; index < replicas.size(); index++) {
                supervisor.watch(replicas.get(index), Optional.of(readinessUri(service, index)));
            }
        });
        while (true) {
            Thread.sleep(1000);
            synchronized (this) {
                if (stopping) {
                    return;
                }
                supervisor.check();
            }
        }
    }

    synchronized void stop() {
        if (stopping) {
            return;
        }
        stopping = true;
        System.out.println("\nStopping the platform…");
        services.values().stream().flatMap(List::stream).toList().parallelStream().forEach(replica -> replica.stop(20));
        if (kafka != null) {
            kafka.stop(30);
        }
        if (s3 != null) {
            s3.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        System.out.println("Stopped.");
    }

    private static Path home() {
        try {
            Path location = Path.of(LocalStack.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return location.getParent().getParent().getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the launcher", e);
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
