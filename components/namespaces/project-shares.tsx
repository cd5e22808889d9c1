// The groups a project is shared with (shared_with_groups, as the API shows them to the viewer), read-only
// on General Settings: GitLab lists them on the members page, which Runway does not have yet.
import Link from 'next/link';
import { roleName } from '@/lib/client/access-levels';
import { groupHref } from '@/lib/client/paths';
import type { SharedWithGroup } from '@/lib/client/types';

export function ProjectShares({ shares }: { shares: SharedWithGroup[] }) {
  return (
    <section aria-labelledby="shares-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="shares-heading" className="text-lg font-semibold text-slate-900">
        Groups with access
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        Members of these groups have access to this project up to the group&apos;s maximum role (their own role in the group, if lower).
      </p>
      {shares.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">This project is not shared with any group.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-md border border-slate-200">
          {shares.map((s) => (
            <li key={s.group_id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm">
              <span className="min-w-0">
                <Link href={groupHref(s.group_full_path)} className="font-medium break-words text-blue-700 hover:underline">
                  {s.group_name}
                </Link>
                <span className="block text-xs break-all text-slate-500">{s.group_full_path}</span>
              </span>
              <span className="text-slate-700">
                Maximum role: {roleName(s.group_access_level) ?? s.group_access_level}
                {s.expires_at && <span className="text-slate-500"> · expires {s.expires_at}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
