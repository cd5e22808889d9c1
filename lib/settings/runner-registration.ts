// Whether registration tokens may be used or reset: the instance setting, and for groups and projects
// also the setting of the root namespace (GitLab's namespace_settings.allow_runner_registration_token).
import { db, type Prisma } from '../db/client';
import { currentSettings } from './application';

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

export async function instanceAllowsRegistrationTokens(client: Client = db()): Promise<boolean> {
  return (await currentSettings(client)).allowRunnerRegistrationToken;
}

/** Instance setting AND the root ancestor's setting of the namespace `namespaceId`. */
export async function namespaceAllowsRegistrationTokens(namespaceId: number, client: Client = db()): Promise<boolean> {
  if (!(await instanceAllowsRegistrationTokens(client))) return false;
  const rows = await client.$queryRaw<{ allowed: boolean }[]>`
    SELECT root.allow_runner_registration_token AS allowed
      FROM namespaces ns JOIN namespaces root ON root.id = ns.traversal_ids[1]
     WHERE ns.id = ${namespaceId}`;
  return rows[0]?.allowed ?? true;
}

export interface NamespaceRunnerSettings {
  allowRunnerRegistrationToken?: boolean;
  runnerTokenExpirationInterval?: number | null;
}

/**
 * Per-group runner settings (GitLab exposes them through group settings, which the namespaces API
 * serves); kept here so that API can call one function.
 */
export async function updateGroupRunnerSettings(groupId: number, change: NamespaceRunnerSettings, client: Client = db()): Promise<void> {
  await client.namespace.update({ where: { id: groupId }, data: change });
}

export async function updateProjectRunnerSettings(
  projectId: number,
  change: Pick<NamespaceRunnerSettings, 'runnerTokenExpirationInterval'>,
  client: Client = db(),
): Promise<void> {
  await client.project.update({ where: { id: projectId }, data: change });
}
