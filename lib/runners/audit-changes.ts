// The fields a runner update changed, named as the API names them, with their values before and after.
// Only settings are compared: a runner's token is never part of it.

export interface RunnerSettings {
  description: string | null;
  active: boolean;
  tagList: readonly string[];
  runUntagged: boolean;
  locked: boolean;
  accessLevel: string;
  maximumTimeout: number | null;
  maintenanceNote: string | null;
}

export type RunnerChanges = Record<string, { from: unknown; to: unknown }>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function runnerChanges(before: RunnerSettings, after: RunnerSettings): RunnerChanges {
  const pairs: [string, unknown, unknown][] = [
    ['description', before.description, after.description],
    ['paused', !before.active, !after.active],
    ['tag_list', [...before.tagList].sort(), [...after.tagList].sort()],
    ['run_untagged', before.runUntagged, after.runUntagged],
    ['locked', before.locked, after.locked],
    ['access_level', before.accessLevel, after.accessLevel],
    ['maximum_timeout', before.maximumTimeout, after.maximumTimeout],
    ['maintenance_note', before.maintenanceNote, after.maintenanceNote],
  ];
  const out: RunnerChanges = {};
  for (const [field, from, to] of pairs) if (!same(from, to)) out[field] = { from, to };
  return out;
}
