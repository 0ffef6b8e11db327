-- The counted request ids are forgotten by age, in batches (CountedRequestsPruner, docs/inference-gateway.md#projects-and-usage):
-- each batch finds its rows through this index instead of reading the whole table.
CREATE INDEX usage_requests_counted_at ON inference.usage_requests (counted_at);
