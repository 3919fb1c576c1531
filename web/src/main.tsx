import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { api, me, type Me } from './api.js';
import { Layout } from './layout.js';
import { SignIn } from './pages/sign-in.js';
import './styles.css';

/**
 * The sign-in link carries a single-use token in the fragment (#login=…): traded once for the
 * session cookie, then dropped from the address bar so it is not left in history.
 */
async function start(): Promise<void> {
  const match = /^#login=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
  if (match) {
    history.replaceState(null, '', window.location.pathname + window.location.search);
    try {
      me.value = await api<Me>('POST', '/dashboard/session', { login_token: match[1] });
      return;
    } catch {
      // Spent or expired: fall through to the session we may already have, else the sign-in form.
    }
  }
  try {
    me.value = await api<Me>('GET', '/dashboard/session');
  } catch {
    me.value = null;
  }
}

function App() {
  useEffect(() => void start(), []);
  if (me.value === undefined) return <p class="loading">Loading…</p>;
  if (me.value === null) return <SignIn />;
  return <Layout />;
}

render(<App />, document.getElementById('app')!);
