// The Runners list's URL state: what the address bar may hold, and how filter changes rewrite it.
import { describe, expect, it } from 'vitest';
import { hasFilters, parseRunnerFilters, runnerFilterParams, runnerFiltersQuery } from './runner-filters';

const parse = (qs: string) => parseRunnerFilters(new URLSearchParams(qs));

describe('[RUNNERS] runner list filters in the URL', () => {
  it('reads search, sort and membership, keeping the defaults out of the URL', () => {
    expect(parse('search=%20build%20&sort=CONTACTED_ASC&membership=all_available')).toMatchObject({
      search: 'build',
      sort: 'CONTACTED_ASC',
      membership: 'all_available',
    });
    expect(parse('sort=NAME&membership=bogus')).toMatchObject({ sort: 'CREATED_DESC', membership: 'descendants' });
    expect(runnerFiltersQuery('page=3&sort=CONTACTED_ASC', { sort: 'CREATED_DESC' })).toBe('');
    expect(runnerFiltersQuery('page=3', { search: 'db', membership: 'all_available' })).toBe('search=db&membership=all_available');
  });

  it('reads type, status, paused, tags, version prefix and page', () => {
    expect(parse('type=group_type&status=never_contacted&paused=true&tag_list=docker,%20linux&version_prefix=17.5&page=3')).toEqual({
      page: 3,
      type: 'group_type',
      status: 'never_contacted',
      paused: true,
      tagList: 'docker, linux',
      versionPrefix: '17.5',
      search: undefined,
      ownerGroupId: undefined,
      ownerProjectId: undefined,
      sort: 'CREATED_DESC',
      membership: 'descendants',
    });
    expect(parse('paused=false').paused).toBe(false);
  });

  it('carries the owner filters to the admin and owned lists, never to a group list', () => {
    const f = parse('owner_group_id=%2012%20&owner_project_id=abc&page=2');
    expect(f).toMatchObject({ ownerGroupId: '12', ownerProjectId: 'abc', page: 2 });
    expect(hasFilters(f)).toBe(true);
    expect(runnerFilterParams(f, { group: false })).toMatchObject({ owner_group_id: '12', owner_project_id: 'abc' });
    expect(runnerFilterParams(f, { group: true })).toMatchObject({ owner_group_id: undefined, owner_project_id: undefined });
    expect(runnerFiltersQuery('page=2&owner_group_id=12', { ownerGroupId: '' })).toBe('');
    expect(runnerFiltersQuery('', { ownerProjectId: ' 7 ' })).toBe('owner_project_id=7');
  });

  it('drops values the API would refuse and defaults to page 1', () => {
    expect(parse('type=shared&status=paused&paused=maybe&tag_list=%20%20&page=-2')).toEqual({
      page: 1,
      type: undefined,
      status: undefined,
      paused: undefined,
      tagList: undefined,
      versionPrefix: undefined,
      search: undefined,
      sort: 'CREATED_DESC',
      membership: 'descendants',
    });
    expect(parse('page=abc').page).toBe(1);
    // Passed through: the API's own message explains it.
    expect(parse('version_prefix=V15').versionPrefix).toBe('V15');
  });

  it('a filter change resets the page; a page change keeps the filters', () => {
    expect(runnerFiltersQuery('type=instance_type&page=4', { status: 'online' })).toBe('type=instance_type&status=online');
    expect(runnerFiltersQuery('type=instance_type', { page: 2 })).toBe('type=instance_type&page=2');
    expect(runnerFiltersQuery('type=instance_type&page=2', { page: 1 })).toBe('type=instance_type');
    expect(runnerFiltersQuery('type=instance_type&paused=true', { type: undefined, paused: false })).toBe('paused=false');
    expect(runnerFiltersQuery('', { tagList: '  docker ', versionPrefix: '' })).toBe('tag_list=docker');
  });

  it('knows when any filter is set', () => {
    expect(hasFilters(parse('page=2'))).toBe(false);
    expect(hasFilters(parse('paused=false'))).toBe(true);
  });
});
