import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { refreshAll, useStore } from './store';
import './styles.css';

// Read everything once, then follow the server's event stream. Merchants, keys and the clock are
// read again when the window comes back to the front: scripts may have changed them meanwhile.
void refreshAll();
useStore.getState().connectLive(() => void refreshAll());
window.addEventListener('focus', () => void refreshAll());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
