-- Each runner's tag ids as an array on the runner row, with a GIN index: `tag_list=a,b` (the runner carries
-- all the tags) becomes `tag_ids @> ARRAY[a, b]` on ci_runners itself, so a list page is ordered and cut on
-- ci_runners without intersecting every requested tag's taggings first (whose cost grew with the fleet).
-- ci_runner_taggings stays the record (tagging order, unique pairs), the array is derived from it by
-- statement-level triggers in the writing transaction, whoever writes (service, seeds, cascades).
ALTER TABLE ci_runners ADD COLUMN tag_ids integer[] NOT NULL DEFAULT '{}';

-- The backfill derives a column, it changes no runner: keep it out of the runner-change notifications.
ALTER TABLE ci_runners DISABLE TRIGGER ci_runners_notify_update;

UPDATE ci_runners r SET tag_ids = t.ids
  FROM (SELECT runner_id, array_agg(tag_id ORDER BY tag_id) AS ids FROM ci_runner_taggings GROUP BY runner_id) t
 WHERE t.runner_id = r.id;

ALTER TABLE ci_runners ENABLE TRIGGER ci_runners_notify_update;

CREATE INDEX ci_runners_tag_ids_idx ON ci_runners USING gin (tag_ids);

-- Recomputes tag_ids of the runners a statement touched. The runner rows are locked first, then the array
-- is read by a second statement: under READ COMMITTED that statement sees the taggings of any transaction
-- that held the lock before, so two concurrent tag writers of one runner cannot lose each other's tags.
-- The migration runner splits scripts at every semicolon, so the body writes each of its semicolons as \073.
CREATE FUNCTION sync_runner_tag_ids() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  ids integer[]\073
BEGIN
  IF TG_OP = ''INSERT'' THEN
    SELECT array_agg(DISTINCT runner_id) INTO ids FROM new_taggings\073
  ELSIF TG_OP = ''DELETE'' THEN
    SELECT array_agg(DISTINCT runner_id) INTO ids FROM old_taggings\073
  ELSE
    SELECT array_agg(DISTINCT runner_id) INTO ids
      FROM (SELECT runner_id FROM old_taggings UNION SELECT runner_id FROM new_taggings) x\073
  END IF\073
  IF ids IS NULL THEN
    RETURN NULL\073
  END IF\073
  PERFORM 1 FROM ci_runners WHERE id = ANY(ids) ORDER BY id FOR UPDATE\073
  UPDATE ci_runners r
     SET tag_ids = ARRAY(SELECT rt.tag_id FROM ci_runner_taggings rt WHERE rt.runner_id = r.id ORDER BY rt.tag_id)
   WHERE r.id = ANY(ids)\073
  RETURN NULL\073
END
';

CREATE TRIGGER ci_runner_taggings_sync_insert
  AFTER INSERT ON ci_runner_taggings REFERENCING NEW TABLE AS new_taggings
  FOR EACH STATEMENT EXECUTE FUNCTION sync_runner_tag_ids();

CREATE TRIGGER ci_runner_taggings_sync_delete
  AFTER DELETE ON ci_runner_taggings REFERENCING OLD TABLE AS old_taggings
  FOR EACH STATEMENT EXECUTE FUNCTION sync_runner_tag_ids();

CREATE TRIGGER ci_runner_taggings_sync_update
  AFTER UPDATE ON ci_runner_taggings REFERENCING OLD TABLE AS old_taggings NEW TABLE AS new_taggings
  FOR EACH STATEMENT EXECUTE FUNCTION sync_runner_tag_ids();
