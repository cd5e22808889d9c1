// The upgrade check against the table of cases of GitLab's own spec, spec/lib/gitlab/ci/runner_upgrade_check_spec.rb
// (gitlabhq), with GitLab's statuses as the API words them (NOT_AVAILABLE for its :unavailable, INVALID for
// :invalid_version); then the version ordering of lib/gitlab/version_info.rb, the shipped release list and the
// status Runway's own GitLab version gives.
import { describe, expect, it } from 'vitest';
import shipped from './data/gitlab-runner-releases.json';
import { GITLAB_COMPAT_VERSION } from '../meta/version';
import { checkRunnerUpgrade, compareVersions, parseVersion, releaseIndex, type UpgradeStatus } from './upgrade-status';

const UP_TO_14_1_1 = releaseIndex(['13.9.0', '13.9.1', '13.9.2', '13.10.0', '13.10.1', '14.0.0', '14.0.1', '14.0.2-rc1', '14.0.2', '14.1.0', '14.1.1']);
// GitLab's spec serves releases as its runner releases URL does: `name`s with a leading v are the same.
const UP_TO_15_1_0 = releaseIndex(['v14.9.1', 'v14.9.2', 'v14.10.0', 'v14.10.1', 'v15.0.0', 'v15.1.0']);

type Case = [runner: string | null, status: UpgradeStatus, suggested: string | null];

describe('[RUNNERS] upgrade status, the cases of runner_upgrade_check_spec.rb', () => {
  it('no releases at all: not_available', () => {
    expect(checkRunnerUpgrade('v14.0.1', releaseIndex([]), '14.1.1')).toEqual({ status: 'not_available', suggested: '14.0.1' });
  });

  it.each([null, 'junk', '', '0.0.0', `v${'1'.repeat(130)}.0.0`])('%s is invalid', (version) => {
    expect(checkRunnerUpgrade(version, UP_TO_14_1_1, '14.1.1')).toEqual({ status: 'invalid', suggested: null });
  });

  it('GitLab 14.1.123: a runner newer than every release (v14.2.0) has nothing to upgrade to', () => {
    expect(checkRunnerUpgrade('v14.2.0', UP_TO_14_1_1, '14.1.123')).toEqual({ status: 'not_available', suggested: '14.2.0' });
  });

  it.each<Case>([
    ['v15.0.0', 'not_available', '15.0.0'],
    ['v14.1.0-rc3', 'recommended', '14.1.1'],
    ['v14.1.0~beta.1574.gf6ea9389', 'recommended', '14.1.1'],
    ['v14.1.0/1.1.0', 'recommended', '14.1.1'],
    ['v14.1.0', 'recommended', '14.1.1'],
    ['v14.0.1', 'recommended', '14.0.2'],
    ['v14.0.2-rc1', 'recommended', '14.0.2'],
    ['v14.0.2', 'not_available', '14.0.2'],
    ['v13.10.1', 'available', '14.0.2'],
    ['v13.10.1~beta.1574.gf6ea9389', 'recommended', '13.10.1'],
    ['v13.10.1/1.1.0', 'recommended', '13.10.1'],
    ['v13.10.0', 'recommended', '13.10.1'],
    ['v13.9.2', 'recommended', '14.0.2'],
    ['v13.9.0', 'recommended', '14.0.2'],
    ['v13.8.1', 'recommended', '14.0.2'],
    ['v11.4.1', 'recommended', '14.0.2'],
  ])('GitLab 14.0.1, releases up to 14.1.1: runner %s is %s (%s)', (runner, status, suggested) => {
    expect(checkRunnerUpgrade(runner, UP_TO_14_1_1, '14.0.1')).toEqual({ status, suggested });
  });

  it.each<Case>([
    ['v14.0.0', 'recommended', '14.0.2'],
    ['v13.10.1', 'not_available', '13.10.1'],
    ['v13.10.0', 'recommended', '13.10.1'],
    ['v13.9.2', 'not_available', '13.9.2'],
    ['v13.9.0', 'recommended', '13.9.2'],
    ['v13.8.1', 'recommended', '13.9.2'],
    ['v11.4.1', 'recommended', '13.9.2'],
  ])('GitLab 13.9.0, releases up to 14.1.1: runner %s is %s (%s)', (runner, status, suggested) => {
    expect(checkRunnerUpgrade(runner, UP_TO_14_1_1, '13.9.0')).toEqual({ status, suggested });
  });

  it('GitLab 15.2.0-pre, releases up to 15.1.0: an unknown minor (14.11.0~beta) is recommended 15.1.0', () => {
    expect(checkRunnerUpgrade('14.11.0~beta.29.gd0c550e3', UP_TO_15_1_0, '15.2.0-pre')).toEqual({ status: 'recommended', suggested: '15.1.0' });
  });
});

describe('[RUNNERS] versions as Gitlab::VersionInfo orders them', () => {
  const v = (s: string) => parseVersion(s)!;
  it.each([
    ['14.0.2-rc1', '14.0.2', -1],
    ['14.0.2', '14.0.2-rc1', 1],
    ['14.1.0/1.1.0', '14.1.0', -1],
    ['13.10.1~beta.1574.gf6ea9389', '13.10.1', -1],
    ['14.0.2-rc1', '14.0.2-rc2', -1],
    ['14.0.2-rc10', '14.0.2-rc2', 1],
    ['v17.5.0', '17.5.0', 0],
    ['17.10.0', '17.9.9', 1],
    ['18.0.0', '17.99.99', 1],
  ])('%s vs %s: %i', (a, b, expected) => {
    expect(compareVersions(v(a), v(b))).toBe(expected);
  });

  it('finds the first major.minor.patch anywhere in the string and keeps what follows as the suffix', () => {
    expect(parseVersion('gitlab-runner 17.5.0~beta.12.gabc')).toMatchObject({
      major: 17,
      minor: 5,
      patch: 0,
      suffix: '~beta.12.gabc',
      parts: ['beta', 12, 'gabc'],
    });
    expect(parseVersion('development version')).toBeNull();
    expect(parseVersion('17.5')).toBeNull();
  });
});

describe("[RUNNERS] the shipped release list and Runway's GitLab version", () => {
  it('is dated, names its source and lists release versions only, oldest first', () => {
    expect(new Date(shipped.fetched_at).toISOString()).toBe(shipped.fetched_at.replace('Z', '.000Z'));
    expect(shipped.source).toMatch(/gitlab-runner/);
    expect(shipped.versions.length).toBeGreaterThan(300);
    expect(shipped.versions.every((s) => /^v\d+\.\d+\.\d+$/.test(s))).toBe(true);
    const parsed = shipped.versions.map((s) => parseVersion(s)!);
    expect(parsed.every((p, i) => i === 0 || compareVersions(parsed[i - 1], p) < 0)).toBe(true);
  });

  it(`against GitLab ${GITLAB_COMPAT_VERSION}: its own minor's newest patch is current, older ones and missed patches are recommended`, () => {
    const releases = releaseIndex(shipped.versions);
    const status = (version: string) => checkRunnerUpgrade(version, releases, GITLAB_COMPAT_VERSION).status;
    const latest = releases.latestByMinor.get('18.6')!;
    expect(status(`${latest.major}.${latest.minor}.${latest.patch}`)).toBe('not_available');
    expect(status('18.6.0')).toBe('recommended');
    expect(status('17.11.0')).toBe('recommended');
    expect(status(shipped.versions.at(-1)!)).toBe('not_available');
    expect(status('development version')).toBe('invalid');
  });
});
