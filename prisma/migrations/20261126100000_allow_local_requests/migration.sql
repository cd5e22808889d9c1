-- AlterTable
ALTER TABLE "application_settings" ADD COLUMN     "allow_local_requests_from_web_hooks_and_services" BOOLEAN NOT NULL DEFAULT false;
