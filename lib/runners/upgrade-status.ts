// A runner version's upgrade status, decided as GitLab decides it (GitLab keeps this for paid tiers):
// gitlabhq lib/gitlab/ci/runner_upgrade_check.rb (Gitlab::Ci::RunnerUpgradeCheck#check_runner_upgrade_suggestion),
// with versions parsed and ordered as lib/gitlab/version_info.rb (Gitlab::VersionInfo, parse_suffix: true) and
// the release list as lib/gitlab/ci/runner_releases.rb keeps it (valid releases, sorted; the newest of each
// minor). Its table of cases is spec/lib/gitlab/ci/runner_upgrade_check_spec.rb (upgrade-status.test.ts).
//
// The rules, in GitLab's order, for a runner version against the releases and the instance's GitLab version:
// 1. A version that does not parse (no `major.minor.patch` in its first 128 characters, or 0.0.0) is `invalid`.
// 2. Outside the backport window (its minor is more than the last three minors released, or a minor no
//    release has): `recommended` when the instance's own minor has a newer release (for an unknown minor,
//    when the instance's minor has a release newer than the instance itself).
// 3. Otherwise a newer patch of its own minor, or else the newest release of any minor older than the
//    instance (GitLab's case of pre-releases that were never published), if newer: `recommended`.
// 4. The newest release of the instance's minor, if newer: `available`.
// 5. Else `not_available`.
// The API's words are GitLab's GraphQL enum (CiRunnerUpgradeStatus, app/graphql/types/ci/
// runner_upgrade_status_enum.rb): INVALID for the model's invalid_version, NOT_AVAILABLE for its unavailable.

/** GitLab's statuses, least urgent first: a runner's status is the most urgent of its managers' (MAX in SQL). */
export const UPGRADE_STATUSES = ['invalid', 'not_available', 'available', 'recommended'] as const;
export type UpgradeStatus = (typeof UPGRADE_STATUSES)[number];

/** The queued job that computes the statuses of versions runners just reported (GitLab's ProcessRunnerVersionUpdateWorker). */
export const RUNNER_VERSIONS_JOB_KIND = 'runner-version-statuses';

/** A parsed version: numbers, the suffix as written and as GitLab compares it (numbers and words). */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  suffix: string;
  parts: Array<number | string>;
}

const VERSION_PATTERN = /(\d+)\.(\d+)\.(\d+)/;
// GitLab's MAX_VERSION_LENGTH: longer strings are not searched (ReDoS guard), so they are invalid.
const MAX_VERSION_LENGTH = 128;

/** The first `major.minor.patch` of the string and what follows it; null when there is none (invalid). */
export function parseVersion(text: string | null | undefined): Version | null {
  if (typeof text !== 'string' || text.length > MAX_VERSION_LENGTH) return null;
  const m = VERSION_PATTERN.exec(text);
  if (!m) return null;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // 0.0.0 is not a version (GitLab's valid?: the parts must not all be zero).
  if (major + minor + patch <= 0 || ![major, minor, patch].every(Number.isSafeInteger)) return null;
  const suffix = text.slice(m.index + m[0].length);
  // A dash reads as ".pre." (so 14.0.2-rc1 < 14.0.2), then runs of digits and of letters are the parts.
  const parts = (
    suffix
      .trim()
      .replace(/-/g, '.pre.')
      .match(/\d+|[a-z]+/gi) ?? []
  ).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  return { major, minor, patch, suffix, parts };
}

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

function compareParts(a: Array<number | string>, b: Array<number | string>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === 'number' && typeof y === 'number') {
      if (x !== y) return sign(x - y);
    } else if (typeof x === 'string' && typeof y === 'string') {
      if (x !== y) return x < y ? -1 : 1;
    } else {
      // Ruby cannot compare a number with a word (the comparison raises); a number sorts first here.
      return typeof x === 'number' ? -1 : 1;
    }
  }
  return sign(a.length - b.length);
}

/** GitLab's VersionInfo#<=>: numbers first, then a release above any suffixed build of it, then the suffixes. */
export function compareVersions(a: Version, b: Version): number {
  if (a.major !== b.major) return sign(a.major - b.major);
  if (a.minor !== b.minor) return sign(a.minor - b.minor);
  if (a.patch !== b.patch) return sign(a.patch - b.patch);
  if (a.suffix === '' && b.parts.length) return 1;
  if (!b.parts.length && a.suffix.trim() !== '') return -1;
  return compareParts(a.parts, b.parts);
}

/** The version as GitLab writes it (to_s): `major.minor.patch` and the suffix as given. */
export const versionText = (v: Version) => `${v.major}.${v.minor}.${v.patch}${v.suffix}`;

const minorKey = (v: Pick<Version, 'major' | 'minor'>) => `${v.major}.${v.minor}`;

/** The releases as the check reads them: sorted, the newest one, and the newest of each minor in minor order. */
export interface ReleaseIndex {
  newest: Version | null;
  /** Minor (`major.minor`) -> its newest release, oldest minor first. */
  latestByMinor: Map<string, Version>;
  /** Minor -> its position among the minors released. */
  minorPosition: Map<string, number>;
}

/** Indexes a list of release names (`v17.5.0`, `17.5.0`); names that do not parse are left out, as GitLab does. */
export function releaseIndex(names: readonly string[]): ReleaseIndex {
  const releases = names
    .map(parseVersion)
    .filter((v): v is Version => v !== null)
    .sort(compareVersions);
  const latestByMinor = new Map<string, Version>();
  for (const r of releases) latestByMinor.set(minorKey(r), r); // ascending: the last one of a minor is its newest
  return {
    newest: releases.at(-1) ?? null,
    latestByMinor,
    minorPosition: new Map([...latestByMinor.keys()].map((k, i) => [k, i])),
  };
}

/** GitLab's backport window: the last three minors released still get patches. */
const BACKPORT_MINORS = 3;

export interface UpgradeCheck {
  status: UpgradeStatus;
  /** The version GitLab would suggest (the runner's own when nothing is newer); null for an invalid version. */
  suggested: string | null;
}

/** The upgrade status of a runner version against the release index and the instance's GitLab version. */
export function checkRunnerUpgrade(runnerVersion: string | null | undefined, releases: ReleaseIndex, gitlabVersion: string): UpgradeCheck {
  const runner = parseVersion(runnerVersion);
  if (!runner) return { status: 'invalid', suggested: null };
  const gitlab = parseVersion(gitlabVersion);
  if (!gitlab) throw new Error(`not a GitLab version: ${gitlabVersion}`);
  const instanceLatest = releases.latestByMinor.get(minorKey(gitlab));

  // The suggestions in the order they are made, one per version; the first one is the answer.
  const suggestions = new Map<string, { version: Version; status: UpgradeStatus }>();
  const suggest = (base: Version, candidate: Version | undefined, status: UpgradeStatus) => {
    if (!candidate || compareVersions(candidate, base) <= 0) return false;
    suggestions.set(versionText(candidate), { version: candidate, status });
    return true;
  };
  // A newer patch of `base`'s minor; else the newest release of a minor before the instance, if newer.
  const recommendUpdate = (base: Version) => {
    if (suggest(base, releases.latestByMinor.get(minorKey(base)), 'recommended')) return true;
    const older = [...releases.latestByMinor.values()].filter((v) => compareVersions(v, gitlab) < 0);
    const newestOlder = older.reduce<Version | undefined>((a, v) => (!a || compareVersions(v, a) > 0 ? v : a), undefined);
    return suggest(base, newestOlder, 'recommended');
  };
  const outsideBackportWindow = () => {
    if (!releases.newest || compareVersions(runner, releases.newest) >= 0) return false;
    const position = releases.minorPosition.get(minorKey(runner));
    // A minor no release has: the newest release for the instance, if the instance is behind it.
    if (position === undefined) return recommendUpdate(gitlab);
    if (releases.minorPosition.size - position <= BACKPORT_MINORS) return false;
    return suggest(runner, instanceLatest, 'recommended');
  };

  if (!outsideBackportWindow()) recommendUpdate(runner);
  if (!instanceLatest || !suggestions.has(versionText(instanceLatest))) suggest(runner, instanceLatest, 'available');
  const [first] = suggestions.values();
  return first ? { status: first.status, suggested: versionText(first.version) } : { status: 'not_available', suggested: versionText(runner) };
}
