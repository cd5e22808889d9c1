// The runner list's URL state: GitLab's parameter names, what the address bar may hold, and how filter
// changes rewrite it.
import { describe, expect, it } from 'vitest';
import { canonicalRunnerQuery, hasFilters, parseRunnerFilters, runnerFilterParams, runnerFiltersQuery } from './runner-filters';

const parse = (qs: string) => parseRunnerFilters(new URLSearchParams(qs));
const normal = (qs: string) => decodeURIComponent(canonicalRunnerQuery(parse(qs)));

describe('[RUNNERS] runner list filters in the URL', () => {
  it("reads GitLab's parameters", () => {
    expect(
      parse(
        'status[]=NEVER_CONTACTED&runner_type[]=GROUP_TYPE&paused[]=true&tag[]=docker&tag[]=linux&version_prefix[]=17.5&search=%20db%20&sort=CONTACTED_ASC&page=3',
      ),
    ).toEqual({
      page: 3,
      type: 'group_type',
      status: 'never_contacted',
      paused: true,
      tags: ['docker', 'linux'],
      versionPrefix: '17.5',
      search: 'db',
      ownerGroupId: undefined,
      ownerProjectId: undefined,
      sort: 'CONTACTED_ASC',
      membership: 'descendants',
    });
    expect(parse('paused[]=false').paused).toBe(false);
  });

  it("rewrites Runway's older names and drops unknown parameters and bad values", () => {
    expect(normal('type=group_type&status=online&tag_list=docker,%20linux&paused=true&foo=bar')).toBe(
      'status[]=ONLINE&runner_type[]=GROUP_TYPE&paused[]=true&tag[]=docker&tag[]=linux',
    );
    expect(normal('status[]=SLEEPY&runner_type[]=shared&paused[]=maybe&tag[]=%20%20&version_prefix[]=V15&page=-2&sort=NAME&membership=bogus')).toBe('');
    expect(normal(`tag[]=${'x'.repeat(300)}&owner_group_id[]=abc&owner_project_id[]=12`)).toBe('owner_project_id[]=12');
    expect(parse('page=abc').page).toBe(1);
  });

  it("keeps GitLab's creator[] username, sends it as creator_username, and drops one the API would refuse", () => {
    const f = parse('creator[]=ada.admin&page=2');
    expect(f.creator).toBe('ada.admin');
    expect(hasFilters(f)).toBe(true);
    expect(runnerFilterParams(f, { group: true })).toMatchObject({ creator_username: 'ada.admin' });
    expect(normal('creator=mark.maintainer')).toBe('creator[]=mark.maintainer');
    expect(normal('creator[]=-bad&creator[]=ok')).toBe('');
    expect(normal('creator[]=a%20b')).toBe('');
  });

  it("keeps GitLab's upgrade_status[] (its Upgrade status token, and INVALID of its API enum), sends it lower-cased", () => {
    const f = parse('upgrade_status[]=RECOMMENDED');
    expect(f.upgradeStatus).toBe('recommended');
    expect(hasFilters(f)).toBe(true);
    expect(runnerFilterParams(f, { group: true })).toMatchObject({ upgrade_status: 'recommended' });
    expect(normal('upgrade_status=not_available')).toBe('upgrade_status[]=NOT_AVAILABLE');
    expect(normal('upgrade_status[]=INVALID&version_prefix[]=18')).toBe('version_prefix[]=18&upgrade_status[]=INVALID');
    expect(normal('upgrade_status[]=SOON')).toBe('');
  });

  it('a filter change resets the page; a page change keeps the filters', () => {
    const f = parse('runner_type[]=INSTANCE_TYPE&page=4');
    expect(decodeURIComponent(runnerFiltersQuery(f, { status: 'online' }))).toBe('status[]=ONLINE&runner_type[]=INSTANCE_TYPE');
    expect(decodeURIComponent(runnerFiltersQuery(f, { page: 2 }))).toBe('runner_type[]=INSTANCE_TYPE&page=2');
    expect(runnerFiltersQuery(f, { page: 1, type: undefined })).toBe('');
    expect(decodeURIComponent(runnerFiltersQuery(f, { sort: 'CREATED_DESC', membership: 'all_available', search: 'db' }))).toBe(
      'runner_type[]=INSTANCE_TYPE&search=db&membership=all_available',
    );
  });

  it('sends the filters to the API, owner filters only outside group lists, quoting tags with commas', () => {
    const f = parse('owner_group_id[]=12&tag[]=a,b&tag[]=c');
    expect(hasFilters(f)).toBe(true);
    expect(runnerFilterParams(f, { group: false })).toMatchObject({ owner_group_id: '12', tag_list: '"a,b",c' });
    expect(runnerFilterParams(f, { group: true })).toMatchObject({ owner_group_id: undefined });
    expect(hasFilters(parse('page=2&sort=CONTACTED_DESC'))).toBe(false);
  });
});
