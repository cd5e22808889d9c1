-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';
