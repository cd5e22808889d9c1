-- Usernames, emails and full paths are matched case-insensitively and exactly, as lower(col) = lower($1)
-- (never LIKE, whose `_` and `%` are wildcards). These expression indexes serve those lookups.
-- schema.prisma cannot express them (and no semicolon may appear in these comments: the engine splits on it).
CREATE INDEX "users_lower_username_idx" ON "users" (lower("username"));
CREATE INDEX "users_lower_email_idx" ON "users" (lower("email"));
CREATE INDEX "namespaces_lower_full_path_idx" ON "namespaces" (lower("full_path"));
CREATE INDEX "projects_lower_full_path_idx" ON "projects" (lower("full_path"));
