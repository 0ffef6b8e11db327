-- The version's index N in its collection (W&B's name:vN), for the artifact_version_string payload
-- variable of an event on a version without an alias. NULL when the event did not say (see ArtifactEvent.knownVersionIndex).
ALTER TABLE automation.events ADD COLUMN version_index integer;

-- Events stored before the column: the index their producers told in a version or an alias named vN.
UPDATE automation.events SET version_index = coalesce(
    substring(version FROM '^v(\d{1,9})$')::integer,
    (SELECT substring(alias FROM '^v(\d{1,9})$')::integer FROM unnest(aliases) AS alias
     WHERE alias ~ '^v\d{1,9}$' LIMIT 1));
