-- A request still running is tracked in the memory of the process that runs it (only that
-- process can finish it, and a crash forgets it with the request), so the table keeps finished
-- responses only and a write with a key costs no extra commit.
DELETE FROM idempotency_keys WHERE state = 'running';
ALTER TABLE idempotency_keys DROP COLUMN state;
ALTER TABLE idempotency_keys DROP COLUMN owner;
