package org.llmplatform.engines;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A real PostgreSQL server (zonky's binaries) on localhost. With a data directory its data outlives
 * the process; without one it starts empty in a temporary directory that is removed on close.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";
    public static final String DATABASE = "postgres";

    private final EmbeddedPostgres postgres;

    private PostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** A throw-away server on a free port. */
    public static PostgresServer startTemporary() {
        return start(EmbeddedPostgres.builder());
    }

    /** A server keeping its data in {@code dataDirectory} across restarts. */
    public static PostgresServer startPersistent(Path dataDirectory, int port) {
        return start(EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port));
    }

    private static PostgresServer start(EmbeddedPostgres.Builder builder) {
        try {
            return new PostgresServer(builder
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("shared_buffers", "64MB")
                    .start());
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start", e);
        }
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port() + "/" + DATABASE;
    }

    public String reactiveUrl() {
        return "postgresql://localhost:" + port() + "/" + DATABASE;
    }

    /** The Quarkus configuration that points a service's default datasource at this server. */
    public Map<String, String> quarkusConfig() {
        return Map.of(
                "quarkus.datasource.jdbc.url", jdbcUrl(),
                "quarkus.datasource.reactive.url", reactiveUrl(),
                "quarkus.datasource.username", USER,
                "quarkus.datasource.password", PASSWORD);
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not stop cleanly", e);
        }
    }
}
