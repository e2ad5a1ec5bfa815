import { type Paging, pageNumber } from '../store/paging';

interface Props {
  paging: Paging;
  /** rows on the page shown (Older needs one to start after) */
  count: number;
  onNewer: () => void;
  onOlder: () => void;
  /** data-testid prefix: `${testId}-newer`, `${testId}-older`, `${testId}-page` */
  testId: string;
}

/** Newer / Older buttons under a keyset-paged list, with the page number. */
export function Pager({ paging, count, onNewer, onOlder, testId }: Props) {
  const first = paging.cursors.length === 0;
  if (first && !paging.hasMore) return null;
  return (
    <nav className="pager" aria-label="Pages" data-testid={testId}>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={first}
        onClick={onNewer}
        data-testid={`${testId}-newer`}
      >
        ← Newer
      </button>
      <span className="muted small" data-testid={`${testId}-page`}>
        Page {pageNumber(paging)}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={!paging.hasMore || count === 0}
        onClick={onOlder}
        data-testid={`${testId}-older`}
      >
        Older →
      </button>
    </nav>
  );
}
