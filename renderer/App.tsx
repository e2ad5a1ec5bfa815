import { Notices } from './components/Notices';
import { Sidebar } from './components/Sidebar';
import { useRoute } from './components/useRoute';
import { findPage } from './pages';

export function App() {
  const page = findPage(useRoute());
  const { Component } = page;
  return (
    <div className="layout">
      <Sidebar current={page.id} />
      <main className="content" data-testid={`page-${page.id}`}>
        <header className="page-header">
          <h1 className="page-title">{page.label}</h1>
          <p className="page-description">{page.description}</p>
        </header>
        <Component />
      </main>
      <Notices />
    </div>
  );
}
