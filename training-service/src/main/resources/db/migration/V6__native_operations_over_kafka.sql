-- Native run operations travel over Kafka (docs/training-service.md#native-runs-over-kafka): executors, embedded or GPU
-- workers, report on training.runs.events instead of claiming rows. The executor a run's learner lives on, its event
-- sequence (to drop redeliveries) and its last sign of life (the lease) are kept per operation.
ALTER TABLE training.native_operations
    ADD COLUMN executor     text,
    ADD COLUMN executor_seq bigint NOT NULL DEFAULT 0,
    ADD COLUMN heartbeat_at timestamptz;
CREATE INDEX native_operations_running ON training.native_operations (heartbeat_at) WHERE status = 'running';
