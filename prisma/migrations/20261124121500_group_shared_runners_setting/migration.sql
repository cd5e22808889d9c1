-- A group's instance-runner setting is GitLab's pair: shared_runners_enabled plus whether subgroups and
-- projects may override a disabled setting (enabled / disabled_and_overridable / disabled_and_unoverridable).
ALTER TABLE "namespaces" ADD COLUMN "allow_descendants_override_disabled_shared_runners" BOOLEAN NOT NULL DEFAULT false;
