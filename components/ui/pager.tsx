// Previous / Next under a list that is not a DataTable (commit and branch lists), with "Page n of m" when
// the API counted (X-Total-Pages) and X-Next-Page otherwise.
import { Button } from './button';

export function Pager({
  page,
  totalPages,
  hasNext,
  onPageChange,
}: {
  page: number;
  totalPages?: number;
  hasNext: boolean;
  onPageChange: (page: number) => void;
}) {
  const canNext = totalPages !== undefined ? page < totalPages : hasNext;
  if (page <= 1 && !canNext) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-3">
      <p className="text-xs text-slate-600">
        Page {page}
        {totalPages !== undefined && ` of ${totalPages}`}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={!canNext} onClick={() => onPageChange(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
