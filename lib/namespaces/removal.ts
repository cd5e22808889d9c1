// Removing projects and whole group trees inside a caller's transaction. Rows that hang off a project or
// group (members, pipelines, jobs, merge requests, commits, group runners, ...) go with it through the
// schema's ON DELETE CASCADE; what must be removed explicitly is done here, children before parents.
import type { Prisma } from '../db/client';

type Tx = Prisma.TransactionClient;

/** Deletes the projects directly in these namespaces. */
export async function deleteProjectsIn(tx: Tx, namespaceIds: number[]): Promise<void> {
  if (!namespaceIds.length) return;
  await tx.$executeRaw`DELETE FROM projects WHERE namespace_id = ANY(${namespaceIds}::int[])`;
}

/** Deletes the groups, every subgroup below them and all their projects. */
export async function deleteGroupTrees(tx: Tx, groupIds: number[]): Promise<void> {
  if (!groupIds.length) return;
  const tree = await tx.$queryRaw<{ id: number; depth: number }[]>`
    SELECT id, cardinality(traversal_ids) AS depth FROM namespaces WHERE kind = 'group' AND traversal_ids && ${groupIds}::int[]`;
  await deleteProjectsIn(
    tx,
    tree.map((r) => r.id),
  );
  // One level at a time, deepest first: parent_id is ON DELETE RESTRICT.
  const depths = [...new Set(tree.map((r) => r.depth))].sort((a, b) => b - a);
  for (const depth of depths) {
    const level = tree.filter((r) => r.depth === depth).map((r) => r.id);
    await tx.$executeRaw`DELETE FROM namespaces WHERE id = ANY(${level}::int[])`;
  }
}
