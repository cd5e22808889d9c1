// GitLab's user entities, keys in GitLab 18's `expose` order: UserBasic < User < UserPublic < UserWithAdmin
// < UserDetailsWithAdmin. Each level spreads the one below so the order is inherited exactly.
import type { User } from '../db/generated/client';
import { externalUrl } from '../config/env';
import { accessLocked } from '../auth/lockout';

type UserRow = Pick<User, 'id' | 'username' | 'name' | 'publicEmail' | 'state'> & Partial<User>;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const isoDate = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);

/** UserSafe: id, username, public_email, name. */
export function userSafe(u: UserRow) {
  return { id: u.id, username: u.username, public_email: u.publicEmail ?? null, name: u.name };
}

/** UserBasic: author, assignee, member user, and non-admins' GET /users rows. */
export function userBasic(u: UserRow) {
  return Object.assign(userSafe(u), {
    state: u.state,
    locked: accessLocked({ lockedAt: u.lockedAt ?? null }),
    avatar_url: null,
    web_url: `${externalUrl()}/${u.username}`,
  });
}

/** Entities::User: what GET /users/:id shows a non-admin. */
export function userDetails(u: User) {
  return Object.assign(userBasic(u), {
    created_at: iso(u.createdAt),
    bio: u.bio,
    location: u.location,
    // public_email keeps its UserSafe position (a re-exposed key does not move in GitLab's hash).
    skype: u.skype,
    linkedin: u.linkedin,
    twitter: u.twitter,
    discord: u.discord,
    website_url: u.websiteUrl,
    organization: u.organization,
    job_title: u.jobTitle,
    pronouns: u.pronouns,
    bot: false,
    work_information: workInformation(u),
    followers: 0,
    following: 0,
    is_followed: false,
    local_time: null,
  });
}

function workInformation(u: User): string | null {
  if (u.jobTitle && u.organization) return `${u.jobTitle} at ${u.organization}`;
  return u.jobTitle || u.organization || null;
}

/** UserPublic: GET /user for a non-admin (the caller's own details). */
export function userPublic(u: User) {
  return Object.assign(userDetails(u), {
    last_sign_in_at: iso(u.lastSignInAt),
    confirmed_at: iso(u.createdAt),
    last_activity_on: isoDate(u.lastActivityOn),
    email: u.email,
    theme_id: u.themeId,
    color_scheme_id: u.colorSchemeId,
    projects_limit: u.projectsLimit,
    current_sign_in_at: iso(u.currentSignInAt),
    identities: [] as unknown[],
    can_create_group: u.canCreateGroup,
    can_create_project: u.projectsLimit > 0,
    two_factor_enabled: false,
    external: u.external,
    private_profile: u.privateProfile,
    commit_email: u.email,
  });
}

/** GitLab's UserWithAdmin fields, in its order. */
function userWithAdminFields(u: User, extra: AdminExtras) {
  return Object.assign(userPublic(u), {
    // Either sign-in lock refuses the user (the key keeps its UserBasic position).
    ...(extra.locked !== undefined && { locked: extra.locked }),
    is_admin: u.admin,
    note: u.note,
    namespace_id: extra.namespaceId ?? null,
    created_by: extra.createdBy ? userBasic(extra.createdBy) : null,
    email_reset_offered_at: null,
  });
}

/**
 * Runway extension, after GitLab's fields: when the latest lock that refuses the user ends (null when none
 * does). GitLab's API has only `locked`; its admin page says nothing about when the lock ends either.
 */
const lockEnd = (extra: AdminExtras) => (extra.lockedUntil !== undefined ? { locked_until: extra.lockedUntil?.toISOString() ?? null } : {});

/** UserWithAdmin: GET /user and GET /users for admins, POST /users. */
export function userWithAdmin(u: User, extra: AdminExtras = {}) {
  return Object.assign(userWithAdminFields(u, extra), lockEnd(extra));
}

/** Relations the admin entities show, batch-loaded by the caller (see queries.ts). */
export interface AdminExtras {
  namespaceId?: number | null;
  createdBy?: UserRow | null;
  /** A sign-in lock refuses the user now: the account's, or one of a single address (lib/auth/lockout.ts). */
  locked?: boolean;
  /** When the latest lock that refuses the user ends. */
  lockedUntil?: Date | null;
}

/** UserDetailsWithAdmin: GET /users/:id for admins. */
export function userDetailsWithAdmin(u: User, extra: AdminExtras = {}) {
  return Object.assign(userWithAdminFields(u, extra), {
    highest_role: 0,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    sign_in_count: 0,
    ...lockEnd(extra),
  });
}

export interface MembershipRow {
  sourceId: number;
  sourceName: string;
  sourceType: 'Project' | 'Namespace';
  accessLevel: number;
}

/** Entities::Membership: GET /users/:id/memberships. */
export function membershipEntity(m: MembershipRow) {
  return { source_id: m.sourceId, source_name: m.sourceName, source_type: m.sourceType, access_level: m.accessLevel };
}
