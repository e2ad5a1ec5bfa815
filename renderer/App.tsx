import { Suspense, useEffect } from 'react';
import { ControlTokenGate } from './components/ControlTokenGate';
import { Notices } from './components/Notices';
import { PresentSwitch } from './components/PresentSwitch';
import { RecordingIndicator } from './components/RecordingIndicator';
import { ScopeBar } from './components/ScopeBar';
import { Sidebar } from './components/Sidebar';
import { useRoute } from './components/useRoute';
import { WorkspaceSwitcher } from './features/workspaces/WorkspaceSwitcher';
import { findPage } from './pages';
import { useStore } from './store';

export function App() {
  const page = findPage(useRoute());
  const { Component } = page;
  const setOpenPage = useStore((s) => s.setOpenPage);
  const production = useStore((s) => s.env === 'production');
  const presenting = useStore((s) => s.presenting);
  const hidden = presenting && page.developer;
  useEffect(() => setOpenPage(page.id), [page.id, setOpenPage]);
  return (
    <div className={`layout ${presenting ? 'presenting' : ''}`}>
      <Sidebar current={page.id} />
      <main className="content" data-testid={`page-${page.id}`}>
        {production && page.scoped && (
          <div className="production-banner" role="status" data-testid="production-banner">
            <strong>Production environment.</strong> You are acting on the simulated live system: its own
            payments, cards and balances (merchants are shared). Switch to Test in the header to go back.
          </div>
        )}
        <header className="page-header">
          <div>
            <h1 className="page-title">{page.label}</h1>
            <p className="page-description">
              {/* A developer page opened by its address describes nothing it does not show. */}
              {hidden ? 'For developers.' : presenting ? (page.plain ?? page.description) : page.description}
            </p>
          </div>
          <div className="page-header-tools">
            <WorkspaceSwitcher />
            {page.scoped && <ScopeBar />}
            <PresentSwitch />
          </div>
        </header>
        <Suspense
          fallback={
            <p className="muted" data-testid="page-loading">
              Loading…
            </p>
          }
        >
          {hidden ? (
            <p className="card empty" data-testid="page-hidden">
              This page is for developers. Switch presentation mode off to see it.
            </p>
          ) : (
            <Component />
          )}
        </Suspense>
      </main>
      <Notices />
      <RecordingIndicator />
      <ControlTokenGate />
    </div>
  );
}
