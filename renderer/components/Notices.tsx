import { useEffect } from 'react';
import { useStore } from '../store';
import type { Notice } from '../store/notices';

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useStore((s) => s.dismiss);
  // Confirmations fade on their own; errors stay until read and dismissed.
  useEffect(() => {
    if (notice.kind !== 'success') return;
    const timer = setTimeout(() => dismiss(notice.id), 4000);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);

  return (
    <div
      className={`notice notice-${notice.kind}`}
      role={notice.kind === 'error' ? 'alert' : 'status'}
      data-testid={`notice-${notice.kind}`}
    >
      <span className="notice-icon" aria-hidden="true">
        {notice.kind === 'error' ? '!' : '✓'}
      </span>
      <p className="notice-message">{notice.message}</p>
      <button
        type="button"
        className="notice-close"
        aria-label="Dismiss"
        data-testid="notice-dismiss"
        onClick={() => dismiss(notice.id)}
      >
        ×
      </button>
    </div>
  );
}

export function Notices() {
  const notices = useStore((s) => s.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} />
      ))}
    </div>
  );
}
