-- Announces runner changes on the channel runway_runner_changes, as {"id": <runner id>, "op": ..., "table": ...}
-- (lib/notifications/hub.ts). NOTIFY is transactional: a notification is delivered only when its
-- transaction commits, once per distinct payload, to every Runway instance LISTENing on the database.
--
-- A poll's heartbeat that only moves contacted_at forward is not announced: with thousands of runners
-- each writing it once a minute, that would be a steady flood for every listener. Its first contact
-- (never contacted -> contacted) is announced, as is any other column (creation_state, settings, paused,
-- token, updated_at). Going offline is a matter of time passing, not of a write: listeners that show
-- status work it out from contacted_at.
--
-- TG_ARGV[0] names the column holding the runner id. The migration runner splits scripts at every
-- semicolon, so the function body is an E'' string that writes each of its semicolons as \073.
CREATE FUNCTION notify_runner_change() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  changed jsonb\073
BEGIN
  changed := CASE WHEN TG_OP = ''DELETE'' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END\073
  PERFORM pg_notify(''runway_runner_changes'',
    json_build_object(''id'', (changed ->> TG_ARGV[0])::bigint, ''op'', TG_OP, ''table'', TG_TABLE_NAME)::text)\073
  RETURN NULL\073
END
';

CREATE TRIGGER ci_runners_notify_insert_delete
  AFTER INSERT OR DELETE ON ci_runners
  FOR EACH ROW EXECUTE FUNCTION notify_runner_change('id');

CREATE TRIGGER ci_runners_notify_update
  AFTER UPDATE ON ci_runners
  FOR EACH ROW
  WHEN ((to_jsonb(NEW) - 'contacted_at') IS DISTINCT FROM (to_jsonb(OLD) - 'contacted_at')
        OR (OLD.contacted_at IS NULL) <> (NEW.contacted_at IS NULL))
  EXECUTE FUNCTION notify_runner_change('id');

CREATE TRIGGER ci_runner_projects_notify
  AFTER INSERT OR UPDATE OR DELETE ON ci_runner_projects
  FOR EACH ROW EXECUTE FUNCTION notify_runner_change('runner_id');
