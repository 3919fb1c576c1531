-- The request log is written on every /v1 request and read now and then (docs/dashboard.md#the-request-log): its second
-- index cost about a quarter of each request's log write (a row inserted and, 10,000 requests later,
-- deleted, in every index). A listing by key walks the ids instead, among at most 10,000 rows (docs/benchmarks.md).
DROP INDEX request_logs_by_key;
