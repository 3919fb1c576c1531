import { useState } from 'preact/hooks';
import { session } from '../api.js';

/** Without a session: paste an API key (the dashboard then allows what its scopes allow), or open a fresh link. */
export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await session.signIn({ api_key: key.trim() });
      setKey('');
      onSignedIn();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <main class="sign-in">
      <h1>Sign in to the crm sandbox</h1>
      <p>Open the link <code>crm sandbox start</code> printed, or run <code>crm dashboard</code> for a fresh one. Or paste an API key:</p>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} placeholder="crm_test_…" />
        <button type="submit">Sign in</button>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
    </main>
  );
}
