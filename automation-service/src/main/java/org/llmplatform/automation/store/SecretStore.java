package org.llmplatform.automation.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.llmplatform.automation.security.EncryptedSecret;

/** The SQL over {@code automation.secrets}. Only ciphertexts pass through here. */
@ApplicationScoped
public class SecretStore {

    private final Pool pool;

    public SecretStore(Pool pool) {
        this.pool = pool;
    }

    /** Creates the secret or overwrites its value (rotation); the old value stops resolving at once. */
    public Uni<SecretInfo> put(String entity, String name, EncryptedSecret secret) {
        return pool.preparedQuery("""
                INSERT INTO automation.secrets (entity, name, kek_id, wrapped_dek, nonce, ciphertext)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (entity, name) DO UPDATE SET kek_id = EXCLUDED.kek_id, wrapped_dek = EXCLUDED.wrapped_dek,
                    nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, updated_at = now()
                RETURNING entity, name, created_at, updated_at""")
                .execute(Tuple.of(entity, name, secret.kekId()).addBuffer(Buffer.buffer(secret.wrappedDek()))
                        .addBuffer(Buffer.buffer(secret.nonce())).addBuffer(Buffer.buffer(secret.ciphertext())))
                .map(rows -> info(rows.iterator().next()));
    }

    public Uni<List<SecretInfo>> list(String entity) {
        return pool.preparedQuery("SELECT entity, name, created_at, updated_at FROM automation.secrets WHERE entity = $1 ORDER BY name")
                .execute(Tuple.of(entity))
                .map(rows -> {
                    List<SecretInfo> secrets = new ArrayList<>();
                    rows.forEach(row -> secrets.add(info(row)));
                    return secrets;
                });
    }

    public Uni<Boolean> exists(String entity, String name) {
        return pool.preparedQuery("SELECT 1 FROM automation.secrets WHERE entity = $1 AND name = $2")
                .execute(Tuple.of(entity, name)).map(rows -> rows.rowCount() > 0);
    }

    public Uni<Boolean> delete(String entity, String name) {
        return pool.preparedQuery("DELETE FROM automation.secrets WHERE entity = $1 AND name = $2")
                .execute(Tuple.of(entity, name)).map(rows -> rows.rowCount() > 0);
    }

    /** The encrypted values of the named secrets of an entity that exist. */
    public Uni<Map<String, EncryptedSecret>> find(String entity, List<String> names) {
        return pool.preparedQuery("""
                SELECT name, kek_id, wrapped_dek, nonce, ciphertext FROM automation.secrets
                WHERE entity = $1 AND name = ANY($2)""")
                .execute(Tuple.of(entity, names.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, EncryptedSecret> found = new HashMap<>();
                    for (Row row : rows) {
                        found.put(row.getString("name"), new EncryptedSecret(row.getString("kek_id"),
                                row.getBuffer("wrapped_dek").getBytes(), row.getBuffer("nonce").getBytes(),
                                row.getBuffer("ciphertext").getBytes()));
                    }
                    return found;
                });
    }

    private static SecretInfo info(Row row) {
        return new SecretInfo(row.getString("entity"), row.getString("name"), row.getOffsetDateTime("created_at"),
                row.getOffsetDateTime("updated_at"));
    }
}
