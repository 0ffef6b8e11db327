-- What a job trains: 'rl' (one GRPO step over trajectory groups) or 'sft' (supervised fine-tuning on a training
-- file; its trajectories_* columns reference the file and config holds the resolved SftJobConfig).
ALTER TABLE training.jobs ADD COLUMN kind text NOT NULL DEFAULT 'rl' CHECK (kind IN ('rl', 'sft'));

-- Training files uploaded through POST /v1/preview/files: JSONL in the blob store, readable by their uploader.
CREATE TABLE training.files (
    id          uuid        PRIMARY KEY,
    owner       text        NOT NULL,
    blob_uri    text        NOT NULL,
    sha256      text        NOT NULL,
    byte_count  bigint      NOT NULL,
    line_count  integer     NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
