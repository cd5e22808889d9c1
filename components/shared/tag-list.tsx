// A runner's tags as code chips, on the runner lists, the runner page and a project's CI/CD settings.
import { Muted } from '../ui/muted';

/** Tags wrap; one too long for its column is cut with an ellipsis, its full name in the tooltip. */
export function TagList({ tags }: { tags: string[] }) {
  if (!tags.length) return <Muted>No tags</Muted>;
  return (
    <span className="flex min-w-0 max-w-full flex-wrap gap-1">
      {tags.map((t) => (
        <code key={t} title={t.length > 24 ? t : undefined} className="max-w-full truncate rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
          {t}
        </code>
      ))}
    </span>
  );
}
