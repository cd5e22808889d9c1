-- Announces every change to a personal access token or a user on the channel runway_credential_changes, as
-- {"table": <table>, "id": <row id>} (lib/auth/token-cache.ts). Each instance caches what authenticating a
-- token reads (the token and its user). Before serving an entry it catches up with the notifications
-- committed so far, so a revoked, rotated, deleted or expired-by-edit token, or a blocked, deleted or demoted
-- user, is refused on the very next request on every instance. NOTIFY is transactional: a notification is
-- delivered only when its transaction commits, once per distinct payload.
--
-- Inserts are not announced: a token unknown to a lookup is never cached, so a new row changes no entry.
-- An UPDATE that changes nothing is not announced either. The migration runner splits scripts at every
-- semicolon, so the function body is an E'' string that writes each of its semicolons as \073.
CREATE FUNCTION notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''runway_credential_changes'',
    json_build_object(''table'', TG_TABLE_NAME, ''id'', CASE WHEN TG_OP = ''DELETE'' THEN OLD.id ELSE NEW.id END)::text)\073
  RETURN NULL\073
END
';

CREATE TRIGGER personal_access_tokens_notify_delete
  AFTER DELETE ON personal_access_tokens
  FOR EACH ROW EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER personal_access_tokens_notify_update
  AFTER UPDATE ON personal_access_tokens
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*)
  EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER users_notify_delete
  AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_credential_change();

CREATE TRIGGER users_notify_update
  AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*)
  EXECUTE FUNCTION notify_credential_change();
