import path from 'node:path';

/** The package root: Next.js and the CLI both run with it as the working directory. */
export function projectRoot(): string {
  return process.env.RUNWAY_ROOT ?? process.cwd();
}

/** Where the embedded database and repository mirrors live (git-ignored). */
export function dataDir(): string {
  return path.resolve(projectRoot(), process.env.RUNWAY_DATA_DIR ?? '.data');
}
