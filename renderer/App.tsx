import { Suspense, useEffect } from 'react';
import { ControlTokenGate } from './components/ControlTokenGate';
import { Notices } from './components/Notices';
import { RecordingIndicator } from './components/RecordingIndicator';
import { ScopeBar } from './components/ScopeBar';
import { Sidebar } from './components/Sidebar';
import { useRoute } from './components/useRoute';
import { findPage } from './pages';
import { useStore } from './store';

export function App() {
  const page = findPage(useRoute());
  const { Component } = page;
  const setOpenPage = useStore((s) => s.setOpenPage);
  const production = useStore((s) => s.env === 'production');
  useEffect(() => setOpenPage(page.id), [page.id, setOpenPage]);
  return (
    <div className="layout">
      <Sidebar current={page.id} />
      <main className="content" data-testid={`page-${page.id}`}>
        {production && page.scoped && (
          <div className="production-banner" role="status" data-testid="production-banner">
            <strong>Production environment.</strong> You are acting on the simulated production address: its
            own resources and RSA key pair (merchants and API keys are shared). Switch to Test in the header
            to go back.
          </div>
        )}
        <header className="page-header">
          <div>
            <h1 className="page-title">{page.label}</h1>
            <p className="page-description">{page.description}</p>
          </div>
          {page.scoped && <ScopeBar />}
        </header>
        <Suspense
          fallback={
            <p className="muted" data-testid="page-loading">
              Loading…
            </p>
          }
        >
          <Component />
        </Suspense>
      </main>
      <Notices />
      <RecordingIndicator />
      <ControlTokenGate />
    </div>
  );
}
