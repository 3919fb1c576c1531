import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { confirmAction } from '../components/confirm.js';
import { CopyButton, ListTable } from '../components/table.js';
import { Time } from '../records/fields.js';

interface App {
  id: string;
  name: string;
  client_id: string;
  redirect_uris: string[];
  scopes: string[];
  created_at: string;
}

export function OAuthApps() {
  const [name, setName] = useState('');
  const [redirect, setRedirect] = useState('');
  const [scopes, setScopes] = useState('leads:read');
  const [secret, setSecret] = useState<{ client_id: string; client_secret: string } | null>(null);
  const [error, setError] = useState('');
  const [reload, setReload] = useState(0);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const made = await api('POST', '/v1/oauth_apps', {
        name,
        redirect_uris: redirect.split(/\s+/).filter(Boolean),
        scopes: scopes.split(/[\s,]+/).filter(Boolean),
      });
      setSecret({ client_id: made.client_id, client_secret: made.client_secret });
      setError('');
      setReload(reload + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  // Deleting takes the app's tokens along (the API answers with the next request's 401).
  const remove = async (a: App) => {
    const ok = await confirmAction({
      title: `Delete the OAuth app ${a.name}?`,
      lose: `Its client id ${a.client_id} and its secret stop working, and every access and refresh token issued to it is revoked at once. This cannot be undone.`,
      confirmLabel: 'Delete app',
    });
    if (!ok) return;
    try {
      await api('DELETE', `/v1/oauth_apps/${a.id}`);
      setReload(reload + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section>
      <h1>OAuth apps</h1>
      <form onSubmit={submit} class="card">
        <h2>Register an app</h2>
        <label for="app-name">Name</label>
        <input id="app-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        <label for="app-redirect">Redirect URIs (space-separated)</label>
        <input id="app-redirect" value={redirect} onInput={(e) => setRedirect(e.currentTarget.value)} required />
        <label for="app-scopes">Scopes</label>
        <input id="app-scopes" value={scopes} onInput={(e) => setScopes(e.currentTarget.value)} required />
        <button type="submit">Register</button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {secret && (
        <div class="card secret" role="status">
          <p>Client secret, shown once: copy it now.</p>
          <code>{secret.client_secret}</code> <CopyButton text={secret.client_secret} label="Copy secret" />
        </div>
      )}
      <ListTable<App>
        caption="OAuth apps"
        path="/v1/oauth_apps"
        reload={reload}
        columns={[
          { label: 'Name', value: (a) => a.name },
          { label: 'Client id', value: (a) => a.client_id },
          { label: 'Redirect URIs', value: (a) => a.redirect_uris.join(' ') },
          { label: 'Scopes', value: (a) => a.scopes.join(' ') },
          { label: 'Created', value: (a) => <Time iso={a.created_at} /> },
          {
            label: 'Delete',
            value: (a) => (
              <button type="button" onClick={() => void remove(a)} aria-label={`Delete ${a.name}`}>
                Delete
              </button>
            ),
          },
        ]}
      />
    </section>
  );
}
