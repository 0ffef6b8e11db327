package org.llmplatform.support.outbox;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The transactional outbox: a state change and the Kafka records announcing it are written in one
 * database transaction, and {@link OutboxRelay} publishes the records afterwards, in insertion order,
 * at least once. Call {@link #add} on the transaction's connection and {@link #flush} once it committed.
 */
@ApplicationScoped
public class Outbox {

    private final OutboxConfig config;
    private final OutboxRelay relay;

    public Outbox(OutboxConfig config, OutboxRelay relay) {
        this.config = config;
        this.relay = relay;
    }

    public Uni<Void> add(SqlClient transaction, List<OutboxMessage> messages) {
        if (messages.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String table = config.table().orElseThrow(() -> new IllegalStateException("platform.outbox.table is not configured"));
        List<Tuple> rows = messages.stream().map(message -> Tuple.of(message.topic(), message.key(), message.payload())).toList();
        return transaction.preparedQuery("INSERT INTO " + table + " (topic, message_key, payload) VALUES ($1, $2, $3)")
                .executeBatch(rows)
                .replaceWithVoid();
    }

    /** Publishes what committed transactions left in the outbox now rather than at the next poll. */
    public void flush() {
        relay.wakeUp();
    }
}
