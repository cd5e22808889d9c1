// The merge request list's URL state: GitLab's parameter names, the plain forms it also reads, what the
// address bar may hold, and how a filter change rewrites it.
import { describe, expect, it } from 'vitest';
import { canonicalMrQuery, hasMrFilters, mrFilterParams, mrFiltersQuery, NO_MR_FILTERS, parseMrFilters } from './merge-request-filters';

const parse = (qs: string) => parseMrFilters(new URLSearchParams(qs));
const normal = (qs: string) => decodeURIComponent(canonicalMrQuery(parse(qs)));

describe('[MERGE REQUESTS] merge request list filters in the URL', () => {
  it("reads GitLab's parameters, array and plain forms", () => {
    expect(
      parse(
        'state=merged&author_username=alice&assignee_username[]=bob&reviewer_username=carol&source_branches[]=topic&target_branches[]=main&search=%20cache%20&sort=title_asc&page=2',
      ),
    ).toEqual({
      state: 'merged',
      author: 'alice',
      assignee: 'bob',
      reviewer: 'carol',
      sourceBranch: 'topic',
      targetBranch: 'main',
      search: 'cache',
      sort: 'title_asc',
      page: 2,
    });
    const plain = parse('assignee_username=bob&source_branch=topic&target_branch=release/1.0');
    expect([plain.assignee, plain.sourceBranch, plain.targetBranch]).toEqual(['bob', 'topic', 'release/1.0']);
  });

  it('drops what the API would refuse or ignore, and defaults', () => {
    expect(normal('state=locked&author_username=no%20spaces&sort=random&page=0&label_name[]=bug&search=%20%20')).toBe('');
    expect(parse('').state).toBe('opened');
    expect(normal('state=opened&sort=created_desc&page=1')).toBe('');
  });

  it('writes the normal form in a fixed order', () => {
    expect(normal('search=x&target_branch=main&author_username=alice&state=all&assignee_username=bob')).toBe(
      'state=all&author_username=alice&assignee_username[]=bob&target_branches[]=main&search=x',
    );
  });

  it('a filter change goes back to page 1; a page turn keeps the filters', () => {
    const f = parse('author_username=alice&page=3');
    expect(decodeURIComponent(mrFiltersQuery(f, { targetBranch: 'main' }))).toBe('author_username=alice&target_branches[]=main');
    expect(mrFiltersQuery(f, { page: 4 })).toBe('author_username=alice&page=4');
    expect(mrFiltersQuery(parse('state=closed&sort=title_asc&author_username=alice&search=x'), NO_MR_FILTERS)).toBe('state=closed&sort=title_asc');
  });

  it('counts only narrowing filters, and names them as the API does', () => {
    expect(hasMrFilters(parse('state=merged&sort=title_asc'))).toBe(false);
    expect(hasMrFilters(parse('reviewer_username=carol'))).toBe(true);
    expect(mrFilterParams(parse('author_username=alice&assignee_username[]=bob&target_branches[]=main&search=x'))).toEqual({
      author_username: 'alice',
      assignee_username: 'bob',
      reviewer_username: undefined,
      source_branch: undefined,
      target_branch: 'main',
      search: 'x',
    });
  });
});
