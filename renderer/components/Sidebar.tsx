import { useEffect, useRef } from 'react';
import { formatTime } from '../lib/format';
import { pages } from '../pages';
import { shellInfo } from '../shell';
import { useStore } from '../store';
import { LogoMark } from './icons';
import { useSandboxNow } from './useSandboxNow';

function SidebarClock() {
  const now = useSandboxNow();
  const frozen = useStore((s) => s.clock?.frozen ?? false);
  return (
    <a className="sidebar-clock" href="#/clock" data-testid="sidebar-clock">
      <span className="sidebar-clock-label">Sandbox time · UTC</span>
      <span className="sidebar-clock-time">{now === null ? '—' : formatTime(now)}</span>
      <span className={`pill ${frozen ? 'pill-frozen' : 'pill-running'}`}>
        {frozen ? 'Frozen' : 'Running'}
      </span>
    </a>
  );
}

export function Sidebar({ current }: { current: string }) {
  const version = useStore((s) => s.version);
  const connection = useStore((s) => (s.liveStatus === 'reconnecting' ? 'offline' : s.connection));
  const live = useStore((s) => s.liveStatus === 'open');
  const presenting = useStore((s) => s.presenting);
  const nav = useRef<HTMLElement>(null);
  // On a phone the areas are one row that scrolls sideways: the open one is brought into it (the
  // row only, never the page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page is what moves the row
  useEffect(() => {
    const row = nav.current;
    const active = row?.querySelector('.nav-item.active');
    if (!row || !active || row.scrollWidth <= row.clientWidth) return;
    const r = row.getBoundingClientRect();
    const a = active.getBoundingClientRect();
    row.scrollLeft += a.left - r.left - (r.width - a.width) / 2;
  }, [current]);
  return (
    <aside className="sidebar">
      <div className="brand">
        <LogoMark />
        <div>
          <div className="brand-name" data-testid="app-name">
            svc-sandbox
          </div>
          <div className="brand-sub">
            {/* Where it runs is the developer's business, not the audience's. */}
            {presenting
              ? 'Live demo'
              : `${version ? `v${version} · ` : ''}${shellInfo ? 'desktop' : 'localhost'}`}
          </div>
        </div>
      </div>
      <nav className="nav" aria-label="Areas" ref={nav}>
        {pages
          .filter((p) => !(presenting && p.developer))
          .map(({ id, label, Icon }) => (
            <a
              key={id}
              href={`#/${id}`}
              className={`nav-item ${id === current ? 'active' : ''}`}
              aria-current={id === current ? 'page' : undefined}
              data-testid={`nav-${id}`}
            >
              <Icon />
              <span>{label}</span>
            </a>
          ))}
      </nav>
      <div className="sidebar-footer">
        <SidebarClock />
        <div className={`connection connection-${connection}`} data-testid="connection">
          <span className="dot" />
          {connection === 'offline'
            ? 'Server unreachable, retrying…'
            : connection === 'online'
              ? `Server running${live ? ' · live' : ''}`
              : 'Connecting…'}
        </div>
      </div>
    </aside>
  );
}
