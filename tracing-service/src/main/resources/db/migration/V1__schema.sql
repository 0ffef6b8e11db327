-- The tracing service's tables live in the "tracing" schema, created by Flyway.
SELECT 1;
