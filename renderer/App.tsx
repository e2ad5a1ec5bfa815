import { useEffect } from 'react';
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
  useEffect(() => setOpenPage(page.id), [page.id, setOpenPage]);
  return (
    <div className="layout">
      <Sidebar current={page.id} />
      <main className="content" data-testid={`page-${page.id}`}>
        <header className="page-header">
          <div>
            <h1 className="page-title">{page.label}</h1>
            <p className="page-description">{page.description}</p>
          </div>
          {page.scoped && <ScopeBar />}
        </header>
        <Component />
      </main>
      <Notices />
      <RecordingIndicator />
    </div>
  );
}
