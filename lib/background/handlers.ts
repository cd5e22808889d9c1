// Job kinds and the code that runs them.
import { runImportJob, IMPORT_JOB_KIND } from '../repositories/import-queue';

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

export const handlers: Record<string, JobHandler> = {
  [IMPORT_JOB_KIND]: runImportJob,
};
