// Runner tags: GitLab's tag_list parsing (CSV string or array, quoted tags may hold commas), model
// normalisation (strip, drop blanks, case-sensitive de-duplication) and writing the taggings.
import type { Prisma } from '../db/client';
import { sql } from '../db/sql';

export const TAG_LIST_MAX_LENGTH = 50;
/** GitLab's Ci::Tag validates a tag name's length (in characters) at 255. */
export const TAG_NAME_MAX_LENGTH = 255;

/** The tags longer than GitLab allows (counted in characters, not UTF-16 units). */
export const tooLongTags = (tags: readonly string[]) => tags.filter((t) => [...t].length > TAG_NAME_MAX_LENGTH);

/** Splits one string on commas outside double quotes, as GitLab's tag parser does. */
function splitTags(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * A `tag_list` parameter as any client sends it (`"a, b"`, `["a","b"]`, `["a,b"]`, `null`) to the list
 * the runner will carry: trimmed, blanks removed, duplicates dropped case-sensitively, order kept.
 */
export function parseTagList(raw: unknown): string[] {
  const parts: string[] = [];
  const visit = (v: unknown) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === 'string') parts.push(...splitTags(v));
    else if (typeof v === 'number' || typeof v === 'boolean') parts.push(String(v));
  };
  visit(raw);
  return normalizeTags(parts);
}

export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tags) {
    const name = t.trim();
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}

/** True when two lists hold different tags (order does not matter, as for GitLab's dirty check). */
export function tagListChanged(before: readonly string[], after: readonly string[]): boolean {
  if (before.length !== after.length) return true;
  const a = new Set(before);
  return after.some((t) => !a.has(t));
}

/**
 * Makes the runner carry exactly `tags`, inside the caller's transaction: tags are created on demand
 * (concurrent creators meet on the unique name), removed taggings deleted, new ones added in list order.
 */
export async function writeTaggings(tx: Prisma.TransactionClient, runnerId: number, tags: readonly string[]): Promise<void> {
  const names = [...tags];
  if (names.length) {
    await tx.$executeRaw`INSERT INTO tags (name) SELECT unnest(${names}::text[]) ON CONFLICT (name) DO NOTHING`;
  }
  await tx.$executeRaw`
    DELETE FROM ci_runner_taggings rt USING tags t
     WHERE rt.tag_id = t.id AND rt.runner_id = ${runnerId} AND NOT (t.name = ANY(${names}::text[]))`;
  if (names.length) {
    await tx.$executeRaw(sql`
      INSERT INTO ci_runner_taggings (runner_id, tag_id)
      SELECT ${runnerId}, t.id
        FROM unnest(${names}::text[]) WITH ORDINALITY AS n(name, ord)
        JOIN tags t ON t.name = n.name
       ORDER BY n.ord
      ON CONFLICT (runner_id, tag_id) DO NOTHING`);
  }
}

/** Tag names per runner, in association (tagging id) order: one query for a whole page of runners. */
export async function loadTagLists(
  client: Prisma.TransactionClient | { $queryRaw: Prisma.TransactionClient['$queryRaw'] },
  runnerIds: readonly number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(runnerIds.map((id) => [id, []]));
  if (!runnerIds.length) return out;
  const rows = await client.$queryRaw<{ runner_id: number; name: string }[]>`
    SELECT rt.runner_id, t.name FROM ci_runner_taggings rt JOIN tags t ON t.id = rt.tag_id
     WHERE rt.runner_id = ANY(${[...runnerIds]}::int[]) ORDER BY rt.runner_id, rt.id`;
  for (const r of rows) out.get(r.runner_id)?.push(r.name);
  return out;
}
