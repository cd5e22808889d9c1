-- The runner event log (lib/runners/event-log.ts): what the live runner events of the last few minutes
-- were, so an event stream that reconnects with Last-Event-ID, on any instance, is replayed what it
-- missed. Expand-only: the notifications of 20261124121500 and 20261124122000 are still sent, for
-- instances of the previous release during a rolling upgrade.
--
-- Row triggers stage one row per change, with the owners the runner had then (the same changes that
-- are announced today: heartbeats that only move contacted_at are not logged). At commit a deferred
-- trigger gives each staged row its public id under a transaction-scoped advisory lock held until the
-- commit is visible, so ids increase in commit order: a reader that has everything up to id N has missed
-- nothing below N. (Transactions that notify already commit one at a time under PostgreSQL's notify
-- lock, and this lock only also covers the few statements of the deferred trigger.) The same trigger
-- announces the row on runway_runner_events with its id.
--
-- The migration runner splits scripts at every semicolon, so function bodies are E'' strings that write
-- each of their semicolons as the octal escape \073.
-- CreateTable
CREATE TABLE "runner_events" (
    "seq" BIGSERIAL NOT NULL,
    "id" BIGINT,
    "runner_id" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "runner_type" "RunnerType" NOT NULL,
    "group_id" INTEGER,
    "project_ids" INTEGER[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "runner_events_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "runner_events_id_key" ON "runner_events"("id");

CREATE SEQUENCE "runner_events_event_id_seq";

-- The index pruning reads by (replay reads by the unique index on id).
CREATE INDEX "runner_events_created_at_idx" ON "runner_events"("created_at");

-- The projects of a project runner (null past 500, like the deletion notification), plus `extra`.
CREATE FUNCTION runway_runner_event_projects(runner integer, kind "RunnerType", extra integer) RETURNS integer[] LANGUAGE plpgsql AS E'
DECLARE
  ids integer[]\073
BEGIN
  IF kind <> ''project_type'' THEN
    RETURN ''{}''::integer[]\073
  END IF\073
  SELECT array_agg(s.project_id) INTO ids
    FROM (SELECT project_id FROM ci_runner_projects WHERE runner_id = runner LIMIT 501) s\073
  IF coalesce(array_length(ids, 1), 0) > 500 THEN
    RETURN NULL\073
  END IF\073
  ids := coalesce(ids, ''{}''::integer[])\073
  IF extra IS NOT NULL AND NOT extra = ANY(ids) THEN
    ids := ids || extra\073
  END IF\073
  RETURN ids\073
END
';

-- ci_runners: TG_ARGV[0] is the action. BEFORE DELETE, so the assignments are still there.
CREATE FUNCTION runway_log_runner_event() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  r ci_runners\073
BEGIN
  IF TG_OP = ''DELETE'' THEN r := OLD\073 ELSE r := NEW\073 END IF\073
  INSERT INTO runner_events (runner_id, action, runner_type, group_id, project_ids)
    VALUES (r.id, TG_ARGV[0], r.runner_type, r.group_id, runway_runner_event_projects(r.id, r.runner_type, NULL))\073
  IF TG_OP = ''DELETE'' THEN RETURN OLD\073 END IF\073
  RETURN NULL\073
END
';

-- ci_runner_projects: the runner was updated, and the project it left counts among its owners of the time.
-- A runner being deleted has no row any more (the cascade): its own deletion event covers it.
CREATE FUNCTION runway_log_runner_assignment_event() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  a ci_runner_projects\073
  r ci_runners\073
BEGIN
  IF TG_OP = ''DELETE'' THEN a := OLD\073 ELSE a := NEW\073 END IF\073
  SELECT * INTO r FROM ci_runners WHERE id = a.runner_id\073
  IF FOUND THEN
    INSERT INTO runner_events (runner_id, action, runner_type, group_id, project_ids)
      VALUES (r.id, ''updated'', r.runner_type, r.group_id,
              runway_runner_event_projects(r.id, r.runner_type, CASE WHEN TG_OP = ''DELETE'' THEN OLD.project_id END))\073
  END IF\073
  RETURN NULL\073
END
';

-- At commit: the public id, in commit order, and the announcement.
CREATE FUNCTION runway_publish_runner_event() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  event_id bigint\073
BEGIN
  PERFORM pg_advisory_xact_lock(7296451002)\073
  event_id := nextval(''runner_events_event_id_seq'')\073
  UPDATE runner_events SET id = event_id WHERE seq = NEW.seq\073
  PERFORM pg_notify(''runway_runner_events'', json_build_object(
    ''event'', event_id, ''id'', NEW.runner_id, ''action'', NEW.action, ''runner_type'', NEW.runner_type,
    ''group_id'', NEW.group_id, ''project_ids'', NEW.project_ids)::text)\073
  RETURN NULL\073
END
';

CREATE TRIGGER ci_runners_log_created
  AFTER INSERT ON ci_runners
  FOR EACH ROW EXECUTE FUNCTION runway_log_runner_event('created');

-- The changes 20261124121500 and 20261124122000 announce: any column but a heartbeat's contacted_at, the
-- first contact, and a contact that brings an offline runner back online.
CREATE TRIGGER ci_runners_log_updated
  AFTER UPDATE ON ci_runners
  FOR EACH ROW
  WHEN ((to_jsonb(NEW) - 'contacted_at') IS DISTINCT FROM (to_jsonb(OLD) - 'contacted_at')
        OR (OLD.contacted_at IS NULL) <> (NEW.contacted_at IS NULL)
        OR (NEW.contacted_at IS NOT NULL
            AND NEW.contacted_at > now() - interval '2 hours'
            AND OLD.contacted_at <= now() - interval '2 hours'))
  EXECUTE FUNCTION runway_log_runner_event('updated');

CREATE TRIGGER ci_runners_log_deleted
  BEFORE DELETE ON ci_runners
  FOR EACH ROW EXECUTE FUNCTION runway_log_runner_event('deleted');

CREATE TRIGGER ci_runner_projects_log
  AFTER INSERT OR UPDATE OR DELETE ON ci_runner_projects
  FOR EACH ROW EXECUTE FUNCTION runway_log_runner_assignment_event();

CREATE CONSTRAINT TRIGGER runner_events_publish
  AFTER INSERT ON runner_events
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION runway_publish_runner_event();
