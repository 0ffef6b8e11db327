-- Jobs the embedded trainer has taken on: a redelivered training.jobs.requested record is not trained twice.
CREATE TABLE training.trainer_claims (
    job_id      uuid        PRIMARY KEY,
    claimed_at  timestamptz NOT NULL DEFAULT now()
);
