// A tag longer than GitLab's Ci::Tag allows (255 characters) is refused by every write that sets tags:
// registration (the agent), POST /user/runners and PUT /runners/:id, with GitLab-shaped 400s; 255 passes.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser, type TestUser } from '../support/users';
import { createGroup, createProject } from '../support/namespaces';
import { register, resetProjectToken } from './runners-registration-support';
import { createRunner } from './runners-admin-support';

const LONGEST = 'x'.repeat(255);
const TOO_LONG = 'y'.repeat(256);
const MESSAGE = 'contains a tag that is too long (maximum is 255 characters)';

let owner: TestUser;
let project: any;

beforeAll(async () => {
  owner = await createUser();
  const group = await createGroup(owner.token);
  project = await createProject(owner.token, { namespaceId: group.id });
});

describe('[RUNNERS] tag name length', () => {
  it('registration (POST /runners) refuses a 256-character tag and keeps a 255-character one', async () => {
    const regToken = await resetProjectToken(owner.token, project.id);
    const bad = await register(regToken, { tag_list: `ok, ${TOO_LONG}` });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { tags_list: [MESSAGE] } });
    const good = await register(regToken, { tag_list: LONGEST });
    expect(good.status).toBe(201);
  });

  it('POST /user/runners answers the full message; characters, not bytes, are counted', async () => {
    const bad = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'instance_type', tag_list: [TOO_LONG] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: `400 Bad request - Tags list ${MESSAGE}` });
    // 255 three-byte characters are 765 bytes but 255 characters: accepted.
    const wide = await api('POST', '/user/runners', { token: rootToken(), json: { runner_type: 'instance_type', tag_list: ['é'.repeat(255)] } });
    expect(wide.status).toBe(201);
  });

  it('PUT /runners/:id refuses the long tag and leaves the runner unchanged', async () => {
    const id = await createRunner('instance_type', { tags: ['linux'] });
    const res = await api('PUT', `/runners/${id}`, { token: rootToken(), json: { tag_list: `linux,${TOO_LONG}` } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { tags_list: [MESSAGE] } });
    const after = await api('GET', `/runners/${id}`, { token: rootToken() });
    expect(after.body.tag_list).toEqual(['linux']);
  });
});
