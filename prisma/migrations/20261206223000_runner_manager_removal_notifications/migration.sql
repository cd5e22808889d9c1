-- A runner manager's removal (DELETE /runners/managers, DELETE /runners/:id/managers, the stale manager
-- cleanup) is announced on runway_runner_changes with its runner's id, as the runner's own changes are
-- (notify_runner_change of 20261124121500). Each instance's runner cache remembers the managers it saw,
-- so that a poll writes a new manager at once and only buffers the contact of a known one
-- (lib/runner-agent/heartbeat.ts recordContact): a removal must drop that memory on every instance, or
-- a runner that keeps polling with the removed system_id would not get its manager back at once.
-- Expand-only: instances of the previous release take it as any change of that runner (they drop its cached
-- entry and re-read it for its held polls, which go on holding when nothing they show changed).
CREATE TRIGGER ci_runner_machines_notify_delete
  AFTER DELETE ON ci_runner_machines
  FOR EACH ROW EXECUTE FUNCTION notify_runner_change('runner_id');
