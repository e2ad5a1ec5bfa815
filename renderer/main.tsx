import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { refreshAll } from './store';
import './styles.css';

// Read everything once, and again whenever the window comes back to the front: scripts may have
// changed the sandbox through the control API in the meantime.
void refreshAll();
window.addEventListener('focus', () => void refreshAll());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
