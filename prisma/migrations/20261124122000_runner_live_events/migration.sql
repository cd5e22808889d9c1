-- Live runner updates (lib/runners/events.ts). Two notifications the row triggers of the notification
-- hub do not give:
--
-- 1. A deleted runner's owners. After the commit nothing is left to decide which pages may hear of the
--    deletion, so a BEFORE DELETE trigger (its assignments still exist then) sends them on
--    runway_runner_deletions: {"id", "runner_type", "group_id", "project_ids"}, with project_ids
--    null past 500 assignments (a NOTIFY payload holds under 8000 bytes).
-- 2. A runner coming back online. Status is a function of contacted_at and the clock: the heartbeat's
--    contacted_at-only writes are not announced (20261124121500_runner_change_notifications announces the
--    first contact only), so this announces the one write that flips an offline or stale runner back to
--    online. Going offline involves no write: pages work it out from contacted_at and the clock.
--
-- The migration runner splits scripts at every semicolon, so function bodies are E'' strings that write
-- each of their semicolons as the octal escape \073.
CREATE FUNCTION runway_notify_runner_deleted() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  ids integer[]\073
BEGIN
  SELECT array_agg(s.project_id) INTO ids
    FROM (SELECT project_id FROM ci_runner_projects WHERE runner_id = OLD.id LIMIT 501) s\073
  PERFORM pg_notify(''runway_runner_deletions'', json_build_object(
    ''id'', OLD.id,
    ''runner_type'', OLD.runner_type,
    ''group_id'', OLD.group_id,
    ''project_ids'', CASE WHEN coalesce(array_length(ids, 1), 0) > 500 THEN NULL ELSE to_json(coalesce(ids, ''{}''::integer[])) END
  )::text)\073
  RETURN OLD\073
END
';

CREATE TRIGGER ci_runners_notify_deleted
  BEFORE DELETE ON ci_runners
  FOR EACH ROW EXECUTE FUNCTION runway_notify_runner_deleted();

CREATE FUNCTION runway_notify_runner_online() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''runway_runner_changes'', json_build_object(''id'', NEW.id, ''op'', ''UPDATE'', ''table'', ''ci_runners'')::text)\073
  RETURN NULL\073
END
';

CREATE TRIGGER ci_runners_notify_online
  AFTER UPDATE OF contacted_at ON ci_runners
  FOR EACH ROW
  WHEN (NEW.contacted_at IS NOT NULL
        AND NEW.contacted_at > now() - interval '2 hours'
        AND OLD.contacted_at <= now() - interval '2 hours'
        AND (to_jsonb(NEW) - 'contacted_at') = (to_jsonb(OLD) - 'contacted_at'))
  EXECUTE FUNCTION runway_notify_runner_online();
