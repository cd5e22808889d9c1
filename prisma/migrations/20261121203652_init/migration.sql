-- CreateEnum
CREATE TYPE "UserState" AS ENUM ('active', 'blocked');

-- CreateEnum
CREATE TYPE "NamespaceKind" AS ENUM ('user', 'group');

-- CreateEnum
CREATE TYPE "Visibility" AS ENUM ('private', 'internal', 'public');

-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('none', 'scheduled', 'started', 'finished', 'failed');

-- CreateEnum
CREATE TYPE "RunnerType" AS ENUM ('instance_type', 'group_type', 'project_type');

-- CreateEnum
CREATE TYPE "RunnerAccessLevel" AS ENUM ('not_protected', 'ref_protected');

-- CreateEnum
CREATE TYPE "RunnerRegistrationType" AS ENUM ('registration_token', 'authenticated_user');

-- CreateEnum
CREATE TYPE "RunnerCreationState" AS ENUM ('started', 'finished');

-- CreateEnum
CREATE TYPE "MergeRequestState" AS ENUM ('opened', 'closed', 'merged', 'locked');

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "public_email" TEXT,
    "password_digest" TEXT NOT NULL,
    "admin" BOOLEAN NOT NULL DEFAULT false,
    "state" "UserState" NOT NULL DEFAULT 'active',
    "bio" TEXT NOT NULL DEFAULT '',
    "location" TEXT NOT NULL DEFAULT '',
    "organization" TEXT NOT NULL DEFAULT '',
    "job_title" TEXT NOT NULL DEFAULT '',
    "website_url" TEXT NOT NULL DEFAULT '',
    "can_create_group" BOOLEAN NOT NULL DEFAULT true,
    "projects_limit" INTEGER NOT NULL DEFAULT 100000,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "current_sign_in_at" TIMESTAMPTZ(3),
    "last_sign_in_at" TIMESTAMPTZ(3),
    "last_activity_on" DATE,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "personal_access_tokens" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "token_digest" TEXT NOT NULL,
    "scopes" TEXT[],
    "expires_at" DATE,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "personal_access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "namespaces" (
    "id" SERIAL NOT NULL,
    "kind" "NamespaceKind" NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "full_path" TEXT NOT NULL,
    "traversal_ids" INTEGER[],
    "parent_id" INTEGER,
    "owner_id" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "visibility" "Visibility" NOT NULL DEFAULT 'private',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "allow_runner_registration_token" BOOLEAN NOT NULL DEFAULT true,
    "runners_token_digest" TEXT,
    "runner_token_expiration_interval" INTEGER,
    "shared_runners_enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "namespaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "namespace_id" INTEGER NOT NULL,
    "full_path" TEXT NOT NULL,
    "description" TEXT,
    "visibility" "Visibility" NOT NULL DEFAULT 'private',
    "default_branch" TEXT,
    "creator_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "shared_runners_enabled" BOOLEAN NOT NULL DEFAULT true,
    "group_runners_enabled" BOOLEAN NOT NULL DEFAULT true,
    "runners_token_digest" TEXT,
    "runner_token_expiration_interval" INTEGER,
    "import_url" TEXT,
    "import_status" "ImportStatus" NOT NULL DEFAULT 'none',
    "import_error" TEXT,
    "imported_at" TIMESTAMPTZ(3),

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "group_members" (
    "id" SERIAL NOT NULL,
    "group_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "access_level" INTEGER NOT NULL,
    "expires_at" DATE,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_members" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "access_level" INTEGER NOT NULL,
    "expires_at" DATE,
    "created_by_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "application_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "allow_runner_registration_token" BOOLEAN NOT NULL DEFAULT true,
    "runners_registration_token_digest" TEXT,
    "runner_token_expiration_interval" INTEGER,
    "group_runner_token_expiration_interval" INTEGER,
    "project_runner_token_expiration_interval" INTEGER,
    "valid_runner_registrars" TEXT[] DEFAULT ARRAY['project', 'group']::TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "application_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_runners" (
    "id" SERIAL NOT NULL,
    "runner_type" "RunnerType" NOT NULL,
    "description" TEXT,
    "name" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "run_untagged" BOOLEAN NOT NULL DEFAULT true,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "access_level" "RunnerAccessLevel" NOT NULL DEFAULT 'not_protected',
    "maximum_timeout" INTEGER,
    "maintenance_note" TEXT,
    "token_digest" TEXT NOT NULL,
    "token_expires_at" TIMESTAMPTZ(3),
    "contacted_at" TIMESTAMPTZ(3),
    "creator_id" INTEGER,
    "registration_type" "RunnerRegistrationType" NOT NULL DEFAULT 'registration_token',
    "creation_state" "RunnerCreationState" NOT NULL DEFAULT 'started',
    "group_id" INTEGER,
    "owner_project_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_runners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_runner_projects" (
    "id" SERIAL NOT NULL,
    "runner_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_runner_projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_runner_taggings" (
    "id" SERIAL NOT NULL,
    "runner_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,

    CONSTRAINT "ci_runner_taggings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_runner_machines" (
    "id" SERIAL NOT NULL,
    "runner_id" INTEGER NOT NULL,
    "system_xid" TEXT NOT NULL,
    "version" TEXT,
    "revision" TEXT,
    "platform" TEXT,
    "architecture" TEXT,
    "executor_type" TEXT,
    "ip_address" TEXT,
    "config" JSONB,
    "creation_state" "RunnerCreationState" NOT NULL DEFAULT 'started',
    "contacted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_runner_machines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_pipelines" (
    "id" SERIAL NOT NULL,
    "iid" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'push',
    "user_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_pipelines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ci_builds" (
    "id" SERIAL NOT NULL,
    "runner_id" INTEGER,
    "runner_manager_id" INTEGER,
    "project_id" INTEGER NOT NULL,
    "pipeline_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "status" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "tag" BOOLEAN NOT NULL DEFAULT false,
    "coverage" DOUBLE PRECISION,
    "allow_failure" BOOLEAN NOT NULL DEFAULT false,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "erased_at" TIMESTAMPTZ(3),
    "queued_duration" DOUBLE PRECISION,

    CONSTRAINT "ci_builds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commits" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "parent_shas" TEXT[],
    "author_name" TEXT NOT NULL,
    "author_email" TEXT NOT NULL,
    "authored_date" TIMESTAMPTZ(3) NOT NULL,
    "authored_tz_offset" INTEGER NOT NULL DEFAULT 0,
    "committer_name" TEXT NOT NULL,
    "committer_email" TEXT NOT NULL,
    "committed_date" TIMESTAMPTZ(3) NOT NULL,
    "committed_tz_offset" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "trailers" JSONB NOT NULL DEFAULT '{}',
    "extended_trailers" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "commits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "branches" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "commit_sha" TEXT NOT NULL,

    CONSTRAINT "branches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merge_requests" (
    "id" SERIAL NOT NULL,
    "iid" INTEGER NOT NULL,
    "target_project_id" INTEGER NOT NULL,
    "source_project_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "state" "MergeRequestState" NOT NULL DEFAULT 'opened',
    "source_branch" TEXT NOT NULL,
    "target_branch" TEXT NOT NULL,
    "author_id" INTEGER,
    "merged_by_id" INTEGER,
    "closed_by_id" INTEGER,
    "merged_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "sha" TEXT,
    "merge_commit_sha" TEXT,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merge_request_assignees" (
    "id" SERIAL NOT NULL,
    "merge_request_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "merge_request_assignees_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merge_request_context_commits" (
    "id" SERIAL NOT NULL,
    "merge_request_id" INTEGER NOT NULL,
    "sha" TEXT NOT NULL,
    "relative_order" INTEGER NOT NULL,
    "author_name" TEXT NOT NULL,
    "author_email" TEXT NOT NULL,
    "authored_date" TIMESTAMPTZ(3) NOT NULL,
    "committer_name" TEXT NOT NULL,
    "committer_email" TEXT NOT NULL,
    "committed_date" TIMESTAMPTZ(3) NOT NULL,
    "message" TEXT NOT NULL,
    "trailers" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "merge_request_context_commits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "background_jobs" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "locked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "background_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "personal_access_tokens_token_digest_key" ON "personal_access_tokens"("token_digest");

-- CreateIndex
CREATE INDEX "personal_access_tokens_user_id_id_idx" ON "personal_access_tokens"("user_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "namespaces_full_path_key" ON "namespaces"("full_path");

-- CreateIndex
CREATE UNIQUE INDEX "namespaces_owner_id_key" ON "namespaces"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "namespaces_runners_token_digest_key" ON "namespaces"("runners_token_digest");

-- CreateIndex
CREATE INDEX "namespaces_parent_id_idx" ON "namespaces"("parent_id");

-- CreateIndex
CREATE INDEX "namespaces_traversal_ids_idx" ON "namespaces" USING GIN ("traversal_ids");

-- CreateIndex
CREATE UNIQUE INDEX "projects_full_path_key" ON "projects"("full_path");

-- CreateIndex
CREATE UNIQUE INDEX "projects_runners_token_digest_key" ON "projects"("runners_token_digest");

-- CreateIndex
CREATE INDEX "projects_namespace_id_idx" ON "projects"("namespace_id");

-- CreateIndex
CREATE INDEX "group_members_user_id_idx" ON "group_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "group_members_group_id_user_id_key" ON "group_members"("group_id", "user_id");

-- CreateIndex
CREATE INDEX "project_members_user_id_idx" ON "project_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "project_members_project_id_user_id_key" ON "project_members"("project_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "application_settings_runners_registration_token_digest_key" ON "application_settings"("runners_registration_token_digest");

-- CreateIndex
CREATE UNIQUE INDEX "ci_runners_token_digest_key" ON "ci_runners"("token_digest");

-- CreateIndex
CREATE INDEX "ci_runners_runner_type_id_idx" ON "ci_runners"("runner_type", "id");

-- CreateIndex
CREATE INDEX "ci_runners_contacted_at_idx" ON "ci_runners"("contacted_at");

-- CreateIndex
CREATE INDEX "ci_runners_group_id_idx" ON "ci_runners"("group_id");

-- CreateIndex
CREATE INDEX "ci_runners_owner_project_id_idx" ON "ci_runners"("owner_project_id");

-- CreateIndex
CREATE INDEX "ci_runners_active_id_idx" ON "ci_runners"("active", "id");

-- CreateIndex
CREATE INDEX "ci_runner_projects_project_id_runner_id_idx" ON "ci_runner_projects"("project_id", "runner_id");

-- CreateIndex
CREATE UNIQUE INDEX "ci_runner_projects_runner_id_project_id_key" ON "ci_runner_projects"("runner_id", "project_id");

-- CreateIndex
CREATE UNIQUE INDEX "tags_name_key" ON "tags"("name");

-- CreateIndex
CREATE INDEX "ci_runner_taggings_tag_id_runner_id_idx" ON "ci_runner_taggings"("tag_id", "runner_id");

-- CreateIndex
CREATE UNIQUE INDEX "ci_runner_taggings_runner_id_tag_id_key" ON "ci_runner_taggings"("runner_id", "tag_id");

-- CreateIndex
CREATE INDEX "ci_runner_machines_version_idx" ON "ci_runner_machines"("version");

-- CreateIndex
CREATE UNIQUE INDEX "ci_runner_machines_runner_id_system_xid_key" ON "ci_runner_machines"("runner_id", "system_xid");

-- CreateIndex
CREATE UNIQUE INDEX "ci_pipelines_project_id_iid_key" ON "ci_pipelines"("project_id", "iid");

-- CreateIndex
CREATE INDEX "ci_builds_runner_id_id_idx" ON "ci_builds"("runner_id", "id");

-- CreateIndex
CREATE INDEX "ci_builds_runner_id_status_id_idx" ON "ci_builds"("runner_id", "status", "id");

-- CreateIndex
CREATE INDEX "ci_builds_runner_manager_id_id_idx" ON "ci_builds"("runner_manager_id", "id");

-- CreateIndex
CREATE INDEX "ci_builds_pipeline_id_idx" ON "ci_builds"("pipeline_id");

-- CreateIndex
CREATE INDEX "commits_project_id_committed_date_idx" ON "commits"("project_id", "committed_date");

-- CreateIndex
CREATE UNIQUE INDEX "commits_project_id_sha_key" ON "commits"("project_id", "sha");

-- CreateIndex
CREATE UNIQUE INDEX "branches_project_id_name_key" ON "branches"("project_id", "name");

-- CreateIndex
CREATE INDEX "merge_requests_target_project_id_state_id_idx" ON "merge_requests"("target_project_id", "state", "id");

-- CreateIndex
CREATE UNIQUE INDEX "merge_requests_target_project_id_iid_key" ON "merge_requests"("target_project_id", "iid");

-- CreateIndex
CREATE INDEX "merge_request_assignees_user_id_idx" ON "merge_request_assignees"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "merge_request_assignees_merge_request_id_user_id_key" ON "merge_request_assignees"("merge_request_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "index_mr_context_commits_on_merge_request_id_and_sha" ON "merge_request_context_commits"("merge_request_id", "sha");

-- CreateIndex
CREATE INDEX "background_jobs_status_id_idx" ON "background_jobs"("status", "id");

-- AddForeignKey
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "namespaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "projects" ADD CONSTRAINT "projects_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runners" ADD CONSTRAINT "ci_runners_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runners" ADD CONSTRAINT "ci_runners_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runners" ADD CONSTRAINT "ci_runners_owner_project_id_fkey" FOREIGN KEY ("owner_project_id") REFERENCES "projects"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runner_projects" ADD CONSTRAINT "ci_runner_projects_runner_id_fkey" FOREIGN KEY ("runner_id") REFERENCES "ci_runners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runner_projects" ADD CONSTRAINT "ci_runner_projects_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runner_taggings" ADD CONSTRAINT "ci_runner_taggings_runner_id_fkey" FOREIGN KEY ("runner_id") REFERENCES "ci_runners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runner_taggings" ADD CONSTRAINT "ci_runner_taggings_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_runner_machines" ADD CONSTRAINT "ci_runner_machines_runner_id_fkey" FOREIGN KEY ("runner_id") REFERENCES "ci_runners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_pipelines" ADD CONSTRAINT "ci_pipelines_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_runner_id_fkey" FOREIGN KEY ("runner_id") REFERENCES "ci_runners"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_runner_manager_id_fkey" FOREIGN KEY ("runner_manager_id") REFERENCES "ci_runner_machines"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_pipeline_id_fkey" FOREIGN KEY ("pipeline_id") REFERENCES "ci_pipelines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ci_builds" ADD CONSTRAINT "ci_builds_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commits" ADD CONSTRAINT "commits_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "branches" ADD CONSTRAINT "branches_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_target_project_id_fkey" FOREIGN KEY ("target_project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_requests" ADD CONSTRAINT "merge_requests_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_assignees" ADD CONSTRAINT "merge_request_assignees_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_assignees" ADD CONSTRAINT "merge_request_assignees_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_context_commits" ADD CONSTRAINT "merge_request_context_commits_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
