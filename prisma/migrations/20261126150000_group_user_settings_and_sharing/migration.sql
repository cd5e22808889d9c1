-- Group settings of POST/PUT /groups and user profile/admin attributes of POST/PUT /users, stored as written
-- (issue 24), and group sharing: groups shared with groups and projects shared with groups.
-- AlterTable
ALTER TABLE "namespaces" ADD COLUMN     "auto_devops_enabled" BOOLEAN,
ADD COLUMN     "default_branch" TEXT,
ADD COLUMN     "default_branch_protection_defaults" JSONB,
ADD COLUMN     "emails_enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "lfs_enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "lock_math_rendering_limits_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "math_rendering_limits_enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "max_artifacts_size" INTEGER,
ADD COLUMN     "mentions_disabled" BOOLEAN,
ADD COLUMN     "prevent_sharing_groups_outside_hierarchy" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "project_creation_level" TEXT NOT NULL DEFAULT 'developer',
ADD COLUMN     "request_access_enabled" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "require_two_factor_authentication" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "share_with_group_lock" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "show_diff_preview_in_email" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "subgroup_creation_level" TEXT NOT NULL DEFAULT 'maintainer',
ADD COLUMN     "two_factor_grace_period" INTEGER NOT NULL DEFAULT 48;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "color_scheme_id" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "discord" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "external" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "linkedin" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "note" TEXT,
ADD COLUMN     "private_profile" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "pronouns" TEXT,
ADD COLUMN     "skype" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "theme_id" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "twitter" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "group_group_links" (
    "id" SERIAL NOT NULL,
    "shared_group_id" INTEGER NOT NULL,
    "shared_with_group_id" INTEGER NOT NULL,
    "group_access" INTEGER NOT NULL,
    "expires_at" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_group_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_group_links" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "group_id" INTEGER NOT NULL,
    "group_access" INTEGER NOT NULL,
    "expires_at" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_group_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "group_group_links_shared_with_group_id_idx" ON "group_group_links"("shared_with_group_id");

-- CreateIndex
CREATE UNIQUE INDEX "group_group_links_shared_group_id_shared_with_group_id_key" ON "group_group_links"("shared_group_id", "shared_with_group_id");

-- CreateIndex
CREATE INDEX "project_group_links_group_id_idx" ON "project_group_links"("group_id");

-- CreateIndex
CREATE UNIQUE INDEX "project_group_links_project_id_group_id_key" ON "project_group_links"("project_id", "group_id");

-- AddForeignKey
ALTER TABLE "group_group_links" ADD CONSTRAINT "group_group_links_shared_group_id_fkey" FOREIGN KEY ("shared_group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_group_links" ADD CONSTRAINT "group_group_links_shared_with_group_id_fkey" FOREIGN KEY ("shared_with_group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_group_links" ADD CONSTRAINT "project_group_links_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_group_links" ADD CONSTRAINT "project_group_links_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
