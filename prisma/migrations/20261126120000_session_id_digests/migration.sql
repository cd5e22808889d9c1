-- Sessions are stored by the SHA-256 (hex) of their id, as tokens are: the id itself lives only in the signed
-- cookie. Rows of sessions signed in before this migration are digested in place, so they stay signed in
-- (sha256() is built into PostgreSQL and PGlite, and the text of a UUID is the lowercase form the cookie carries).
ALTER TABLE "user_sessions" ADD COLUMN "id_digest" TEXT;
UPDATE "user_sessions" SET "id_digest" = encode(sha256(convert_to("id"::text, 'UTF8')), 'hex');
ALTER TABLE "user_sessions" ALTER COLUMN "id_digest" SET NOT NULL;
ALTER TABLE "user_sessions" DROP CONSTRAINT "user_sessions_pkey";
ALTER TABLE "user_sessions" DROP COLUMN "id";
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_pkey" PRIMARY KEY ("id_digest");
