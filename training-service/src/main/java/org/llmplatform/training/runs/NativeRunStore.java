package org.llmplatform.training.runs;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.llmplatform.training.store.Model;

/** The SQL of native training runs, their operations and saved learner states (V5__native_training_runs.sql). */
@ApplicationScoped
public class NativeRunStore {

    private static final String RUN_COLUMNS = "run_id, owner, request_id, run_name, spec::text AS spec, initial_state::text AS initial_state, "
            + "status, next_sequence_id, projected_learner_version, committed_learner_version";
    private static final String OPERATION_COLUMNS = "operation_id, run_id, request_id, sequence_id, kind, command::text AS command, "
            + "command_digest, status, learner_parent_version, reserved_output_learner_version, cancel_requested, event_cursor, "
            + "result::text AS result, error_code, error_message, admitted_at, started_at, ended_at, executor, executor_seq";
    private static final String STATE_COLUMNS = "checkpoint_id, run_id, owner, name, learner_version, adapter_uri, first_moment_uri, "
            + "second_moment_uri, optimizer_steps";

    private final Pool pool;

    public NativeRunStore(Pool pool) {
        this.pool = pool;
    }

    public Pool pool() {
        return pool;
    }

    public Uni<Optional<NativeRun>> findRun(String runId) {
        return pool.preparedQuery("SELECT " + RUN_COLUMNS + " FROM training.native_runs WHERE run_id = $1")
                .execute(Tuple.of(runId)).map(rows -> first(rows, NativeRunStore::run));
    }

    public Uni<Optional<NativeRun>> lockRun(SqlClient transaction, String runId) {
        return transaction.preparedQuery("SELECT " + RUN_COLUMNS + " FROM training.native_runs WHERE run_id = $1 FOR UPDATE")
                .execute(Tuple.of(runId)).map(rows -> first(rows, NativeRunStore::run));
    }

    /** The run {@code owner} resolved before with this request id, or the open run of this name. */
    public Uni<Optional<NativeRun>> findResolved(SqlClient client, String owner, String requestId, String runName) {
        return client.preparedQuery("SELECT " + RUN_COLUMNS + " FROM training.native_runs WHERE owner = $1 AND (request_id = $2 OR "
                        + "(run_name = $3 AND status = 'open')) ORDER BY (request_id = $2) DESC LIMIT 1")
                .execute(Tuple.of(owner, requestId, runName)).map(rows -> first(rows, NativeRunStore::run));
    }

    /** False when a run of this request id or open name was inserted meanwhile. */
    public Uni<Boolean> insertRun(SqlClient client, NativeRun run) {
        return client.preparedQuery("INSERT INTO training.native_runs (run_id, owner, request_id, run_name, spec, initial_state) "
                        + "VALUES ($1, $2, $3, $4, $5::text::jsonb, $6::text::jsonb) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(run.runId(), run.owner(), run.requestId(), run.runName(), run.spec(), run.initialState()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Closes the run; its operations still waiting are cancelled. */
    public Uni<Void> close(SqlClient transaction, String runId) {
        return transaction.preparedQuery("UPDATE training.native_operations SET status = 'cancelled', cancel_requested = true, "
                        + "ended_at = clock_timestamp(), event_cursor = event_cursor + 1 WHERE run_id = $1 AND status = 'admitted'")
                .execute(Tuple.of(runId))
                .chain(() -> transaction.preparedQuery("UPDATE training.native_runs SET status = 'closed', updated_at = now() WHERE run_id = $1")
                        .execute(Tuple.of(runId)))
                .replaceWithVoid();
    }

    public Uni<Optional<NativeOperation>> findOperation(String runId, String operationId) {
        return pool.preparedQuery("SELECT " + OPERATION_COLUMNS + " FROM training.native_operations WHERE run_id = $1 AND operation_id = $2")
                .execute(Tuple.of(runId, operationId)).map(rows -> first(rows, NativeRunStore::operation));
    }

    public Uni<Optional<NativeOperation>> findOperationByRequest(SqlClient client, String runId, String requestId) {
        return client.preparedQuery("SELECT " + OPERATION_COLUMNS + " FROM training.native_operations WHERE run_id = $1 AND request_id = $2")
                .execute(Tuple.of(runId, requestId)).map(rows -> first(rows, NativeRunStore::operation));
    }

    /** Inserts the operation and moves the run's next sequence id (and projected learner version, for a transition) past it. */
    public Uni<NativeOperation> admit(SqlClient transaction, NativeOperation operation) {
        return transaction.preparedQuery("INSERT INTO training.native_operations (operation_id, run_id, request_id, sequence_id, kind, "
                        + "command, command_digest, learner_parent_version, reserved_output_learner_version) "
                        + "VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $8, $9) RETURNING " + OPERATION_COLUMNS)
                .execute(Tuple.from(new Object[] {operation.operationId(), operation.runId(), operation.requestId(), operation.sequenceId(),
                        operation.kind(), operation.command(), operation.commandDigest(), operation.learnerParentVersion(),
                        operation.reservedOutputLearnerVersion()}))
                .map(rows -> operation(rows.iterator().next()))
                .call(() -> transaction.preparedQuery("UPDATE training.native_runs SET next_sequence_id = next_sequence_id + 1, "
                                + "projected_learner_version = coalesce($2, projected_learner_version), updated_at = now() WHERE run_id = $1")
                        .execute(Tuple.of(operation.runId(), operation.reservedOutputLearnerVersion())));
    }

    /**
     * Marks the operation for cancelling: one still waiting ends cancelled here; one running is left to its executor, which
     * discards what it computed; an ended one stays as it is.
     */
    public Uni<Void> requestCancel(SqlClient transaction, String runId, String operationId) {
        return transaction.preparedQuery("UPDATE training.native_operations SET cancel_requested = true, event_cursor = event_cursor + 1, "
                        + "status = CASE WHEN status = 'admitted' THEN 'cancelled' ELSE status END, "
                        + "ended_at = CASE WHEN status = 'admitted' THEN clock_timestamp() ELSE ended_at END "
                        + "WHERE run_id = $1 AND operation_id = $2 AND status IN ('admitted', 'running') AND NOT cancel_requested")
                .execute(Tuple.of(runId, operationId)).replaceWithVoid();
    }

    public Uni<Optional<NativeOperation>> lockOperation(SqlClient transaction, String operationId) {
        return transaction.preparedQuery("SELECT " + OPERATION_COLUMNS + " FROM training.native_operations WHERE operation_id = $1 FOR UPDATE")
                .execute(Tuple.of(operationId)).map(rows -> first(rows, NativeRunStore::operation));
    }

    /** An executor started the operation (or took it over): it runs there, and the run's learner lives there. */
    public Uni<Void> markRunning(SqlClient transaction, NativeOperation operation, String executor, long seq) {
        return transaction.preparedQuery("UPDATE training.native_operations SET status = 'running', started_at = coalesce(started_at, "
                        + "clock_timestamp()), heartbeat_at = clock_timestamp(), executor = $2, executor_seq = $3, "
                        + "event_cursor = event_cursor + CASE WHEN status = 'running' THEN 0 ELSE 1 END WHERE operation_id = $1")
                .execute(Tuple.of(operation.operationId(), executor, seq))
                .chain(() -> transaction.preparedQuery("UPDATE training.native_runs SET executor = $2 WHERE run_id = $1")
                        .execute(Tuple.of(operation.runId(), executor)))
                .replaceWithVoid();
    }

    public Uni<Void> heartbeat(SqlClient transaction, String operationId, String executor, long seq) {
        return transaction.preparedQuery("UPDATE training.native_operations SET heartbeat_at = clock_timestamp(), executor = $2, "
                        + "executor_seq = $3 WHERE operation_id = $1")
                .execute(Tuple.of(operationId, executor, seq)).replaceWithVoid();
    }

    /** Ends the operation; a learner transition that succeeded commits its version on the run. */
    public Uni<Void> finish(SqlClient transaction, NativeOperation operation, String status, String result, String errorCode,
            String errorMessage) {
        return transaction.preparedQuery("UPDATE training.native_operations SET status = $2, result = $3::text::jsonb, error_code = $4, "
                        + "error_message = $5, ended_at = clock_timestamp(), event_cursor = event_cursor + 1 WHERE operation_id = $1")
                .execute(Tuple.of(operation.operationId(), status, result, errorCode, errorMessage))
                .chain(() -> NativeOperation.SUCCEEDED.equals(status) && operation.reservedOutputLearnerVersion() != null
                        ? transaction.preparedQuery("UPDATE training.native_runs SET committed_learner_version = $2, updated_at = now() "
                                + "WHERE run_id = $1").execute(Tuple.of(operation.runId(), operation.reservedOutputLearnerVersion())).replaceWithVoid()
                        : Uni.createFrom().voidItem());
    }

    /** The run's learner is gone: the run fails, and its operations still waiting end cancelled. */
    public Uni<Void> failRun(SqlClient transaction, String runId) {
        return transaction.preparedQuery("UPDATE training.native_operations SET status = 'cancelled', ended_at = clock_timestamp(), "
                        + "event_cursor = event_cursor + 1 WHERE run_id = $1 AND status = 'admitted'")
                .execute(Tuple.of(runId))
                .chain(() -> transaction.preparedQuery("UPDATE training.native_runs SET status = 'failed', updated_at = now() "
                        + "WHERE run_id = $1 AND status = 'open'").execute(Tuple.of(runId)))
                .replaceWithVoid();
    }

    /**
     * Whether operation {@code o}'s lease ran out ($1: the heartbeat lease, $2: the pickup timeout, in seconds): running,
     * with no event from its executor for the heartbeat lease; or next in its open run (nothing before it waiting or
     * running) and not started within the pickup timeout since it became next.
     */
    private static final String LEASE_EXPIRED = "((o.status = 'running' AND o.heartbeat_at < clock_timestamp() - make_interval(secs => $1)) "
            + "OR (o.status = 'admitted' AND EXISTS (SELECT 1 FROM training.native_runs r WHERE r.run_id = o.run_id AND r.status = 'open') "
            + "AND NOT EXISTS (SELECT 1 FROM training.native_operations p WHERE p.run_id = o.run_id AND p.sequence_id < o.sequence_id "
            + "AND p.status IN ('admitted', 'running')) AND greatest(o.admitted_at, (SELECT max(p.ended_at) FROM training.native_operations p "
            + "WHERE p.run_id = o.run_id AND p.sequence_id < o.sequence_id)) < clock_timestamp() - make_interval(secs => $2)))";

    /** Up to {@code limit} operations whose lease ran out ({@link #LEASE_EXPIRED}). */
    public Uni<List<String>> expiredLeases(Duration heartbeatLease, Duration pickupTimeout, int limit) {
        return pool.preparedQuery("SELECT o.operation_id FROM training.native_operations o WHERE o.status IN ('running', 'admitted') AND "
                        + LEASE_EXPIRED + " LIMIT $3")
                .execute(Tuple.of(seconds(heartbeatLease), seconds(pickupTimeout), limit))
                .map(rows -> {
                    List<String> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getString("operation_id")));
                    return ids;
                });
    }

    /** Whether the locked operation's lease has run out, as {@link #expiredLeases} decides. */
    public Uni<Boolean> leaseExpired(SqlClient transaction, String operationId, Duration heartbeatLease, Duration pickupTimeout) {
        return transaction.preparedQuery("SELECT 1 FROM training.native_operations o WHERE o.operation_id = $3 AND " + LEASE_EXPIRED)
                .execute(Tuple.of(seconds(heartbeatLease), seconds(pickupTimeout), operationId))
                .map(rows -> rows.size() > 0);
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    public Uni<Optional<SavedLearnerState>> findState(SqlClient client, String checkpointId) {
        return client.preparedQuery("SELECT " + STATE_COLUMNS + " FROM training.native_checkpoints WHERE checkpoint_id = $1")
                .execute(Tuple.of(checkpointId)).map(rows -> first(rows, NativeRunStore::state));
    }

    /**
     * Records a saved state under its run and name; with {@code overwrite} a state of that name is replaced (keeping its
     * id), without it the item is empty when the name is taken. The item is the state's checkpoint id.
     */
    public Uni<Optional<String>> saveState(SqlClient transaction, SavedLearnerState state, boolean overwrite) {
        String onConflict = overwrite
                ? "ON CONFLICT (run_id, name) DO UPDATE SET learner_version = excluded.learner_version, adapter_uri = excluded.adapter_uri, "
                        + "first_moment_uri = excluded.first_moment_uri, second_moment_uri = excluded.second_moment_uri, "
                        + "optimizer_steps = excluded.optimizer_steps, created_at = now()"
                : "ON CONFLICT (run_id, name) DO NOTHING";
        return transaction.preparedQuery("INSERT INTO training.native_checkpoints (" + STATE_COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                        + onConflict + " RETURNING checkpoint_id")
                .execute(Tuple.from(new Object[] {state.checkpointId(), state.runId(), state.owner(), state.name(), state.learnerVersion(),
                        state.adapterUri(), state.firstMomentUri(), state.secondMomentUri(), state.optimizerSteps()}))
                .map(rows -> first(rows, row -> row.getString("checkpoint_id")));
    }

    /** The models of {@code entity} with this name, in any of its projects (an alias that names a model by its name alone). */
    public Uni<List<Model>> modelsNamed(String entity, String name) {
        return pool.preparedQuery("SELECT id, entity, project, name, base_model FROM training.models WHERE entity = $1 AND name = $2")
                .execute(Tuple.of(entity, name))
                .map(rows -> {
                    List<Model> models = new ArrayList<>();
                    rows.forEach(row -> models.add(new Model(row.getUUID("id"), row.getString("entity"), row.getString("project"),
                            row.getString("name"), row.getString("base_model"))));
                    return models;
                });
    }

    private static <T> Optional<T> first(RowSet<Row> rows, Function<Row, T> mapper) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(mapper.apply(rows.iterator().next()));
    }

    private static NativeRun run(Row row) {
        return new NativeRun(row.getString("run_id"), row.getString("owner"), row.getString("request_id"), row.getString("run_name"),
                row.getString("spec"), row.getString("initial_state"), row.getString("status"), row.getLong("next_sequence_id"),
                row.getLong("projected_learner_version"), row.getLong("committed_learner_version"));
    }

    private static NativeOperation operation(Row row) {
        return new NativeOperation(row.getString("operation_id"), row.getString("run_id"), row.getString("request_id"),
                row.getLong("sequence_id"), row.getString("kind"), row.getString("command"), row.getString("command_digest"),
                row.getString("status"), row.getLong("learner_parent_version"), row.getLong("reserved_output_learner_version"),
                row.getBoolean("cancel_requested"), row.getInteger("event_cursor"), row.getString("result"), row.getString("error_code"),
                row.getString("error_message"), row.getOffsetDateTime("admitted_at"), row.getOffsetDateTime("started_at"),
                row.getOffsetDateTime("ended_at"), row.getString("executor"), row.getLong("executor_seq"));
    }

    private static SavedLearnerState state(Row row) {
        return new SavedLearnerState(row.getString("checkpoint_id"), row.getString("run_id"), row.getString("owner"), row.getString("name"),
                row.getLong("learner_version"), row.getString("adapter_uri"), row.getString("first_moment_uri"),
                row.getString("second_moment_uri"), row.getInteger("optimizer_steps"));
    }
}
