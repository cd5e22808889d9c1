-- A top-level group always keeps at least one Owner membership. The API refuses to change or remove the
-- last owner of a group, and this deferred check holds the same line for any other writer. It first locks
-- the row of the group, so two transactions each removing one of the last two owners run one after the
-- other and the second sees the change of the first. A group being deleted takes its memberships along.
--
-- The migration runner splits scripts at every semicolon, so the function body is an E'' string that
-- writes each of its semicolons as the octal escape \073.
CREATE FUNCTION group_keeps_an_owner() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF OLD.access_level = 50 THEN
    PERFORM 1 FROM namespaces WHERE id = OLD.group_id AND parent_id IS NULL FOR UPDATE\073
    IF FOUND AND NOT EXISTS (SELECT 1 FROM group_members WHERE group_id = OLD.group_id AND access_level = 50) THEN
      RAISE EXCEPTION ''group % would be left without an owner'', OLD.group_id USING ERRCODE = ''check_violation''\073
    END IF\073
  END IF\073
  RETURN NULL\073
END
';

CREATE CONSTRAINT TRIGGER group_members_keep_an_owner
  AFTER UPDATE OF access_level OR DELETE ON group_members
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION group_keeps_an_owner();
