import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { normaliseBrowserLocale } from './lib/locale';
import { refreshAll, useStore } from './store';
import './styles.css';

// Before any chunk formats numbers or dates with the browser's language (`en-US@posix` → `en-US`).
normaliseBrowserLocale();

// Pick the workspace (the link's, the last one, or the default), read everything once, then follow
// the server's event stream. Merchants, keys, the clock and the workspaces are read again when the
// window comes back to the front: scripts may have changed them meanwhile.
void useStore
  .getState()
  .startWorkspace()
  .then(() => {
    void refreshAll();
    useStore.getState().connectLive(() => void refreshAll());
  });
window.addEventListener('focus', () => {
  void refreshAll();
  void useStore.getState().loadWorkspaces();
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
