import { useState } from 'preact/hooks';
import { api, me, type Me } from '../api.js';

/** Signing in by pasting an API key: the dashboard then shows and allows only what its scopes allow. */
export function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    try {
      me.value = await api<Me>('POST', '/dashboard/session', { api_key: key.trim() });
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <main class="sign-in">
      <h1>crm dashboard</h1>
      <p>
        Open the link <code>crm sandbox start</code> printed, run <code>crm dashboard</code> for a fresh one, or paste an API key.
      </p>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} required />
        <button type="submit">Sign in</button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </main>
  );
}
