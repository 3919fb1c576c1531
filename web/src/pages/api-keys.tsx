import { useEffect, useState } from 'preact/hooks';
import { allows, api, type Page } from '../api.js';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: string[];
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  secret?: string;
}

const RESOURCES = ['leads', 'clients', 'deals', 'invoices', 'events', 'webhooks', 'keys', 'usage'];
const ACCESS: Record<string, string[]> = { events: ['none', 'read'], usage: ['none', 'read'] };

function stateOf(key: ApiKey): string {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) return 'expired';
  return 'active';
}

/** Settings → API: keys with a scope matrix; a new key's secret is shown once, then only prefix and last 4. */
export function ApiKeysPage({ scopes }: { scopes: string[] }) {
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [created, setCreated] = useState<ApiKey | undefined>();
  const [error, setError] = useState('');
  const [name, setName] = useState('');
  const [matrix, setMatrix] = useState<Record<string, string>>({});
  const [all, setAll] = useState(false);
  const load = () => api<Page<ApiKey>>('GET', '/v1/api_keys?limit=100').then((p) => setKeys(p.data), (e: Error) => setError(e.message));
  useEffect(() => void load(), []);

  const create = async (event: Event) => {
    event.preventDefault();
    setError('');
    const chosen = all ? ['*'] : Object.entries(matrix).filter(([, a]) => a !== 'none').map(([r, a]) => `${r}:${a}`);
    try {
      const key = await api<ApiKey>('POST', '/v1/api_keys', { name, scopes: chosen });
      setCreated(key);
      setName('');
      setMatrix({});
      setAll(false);
      load();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  // Revoking asks once more in place (no confirm(): a dialog blocks the page and screen readers).
  const [revoking, setRevoking] = useState<string | undefined>();
  const revoke = async (key: ApiKey) => {
    setRevoking(undefined);
    await api('DELETE', `/v1/api_keys/${key.id}`).then(load, (e: Error) => setError(e.message));
  };

  return (
    <>
      {created && (
        <section class="secret" role="status" aria-label="New API key">
          <p>
            <strong>{created.name}</strong>: copy the secret now. It is shown <em>once</em>; afterwards only its prefix and last four characters.
          </p>
          <code>{created.secret}</code>
          <button type="button" onClick={() => navigator.clipboard.writeText(created.secret ?? '')}>Copy secret</button>
          <button type="button" onClick={() => setCreated(undefined)}>Done</button>
        </section>
      )}
      {error && <p role="alert" class="error">{error}</p>}
      <table>
        <caption class="sr-only">API keys</caption>
        <thead>
          <tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td><code>{key.prefix}…{key.last4}</code></td>
              <td>{key.scopes.join(' ')}</td>
              <td>{key.last_used_at?.slice(0, 19).replace('T', ' ') ?? 'never'}</td>
              <td>{stateOf(key)}</td>
              <td>
                {stateOf(key) === 'active' && allows(scopes, 'keys:write') &&
                  (revoking === key.id ? (
                    <>
                      <button type="button" onClick={() => revoke(key)}>Yes, revoke {key.name}: it fails from its next request on</button>
                      <button type="button" onClick={() => setRevoking(undefined)}>Keep it</button>
                    </>
                  ) : (
                    <button type="button" onClick={() => setRevoking(key.id)}>Revoke {key.name}</button>
                  ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {allows(scopes, 'keys:write') && (
        <form class="create" onSubmit={create}>
          <h2>Create a key</h2>
          <label>
            Name <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label class="inline">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> Every scope (<code>*</code>)
          </label>
          <fieldset disabled={all}>
            <legend>Access per resource</legend>
            {RESOURCES.map((resource) => (
              <label key={resource}>
                {resource}
                <select value={matrix[resource] ?? 'none'} onChange={(e) => setMatrix({ ...matrix, [resource]: e.currentTarget.value })}>
                  {(ACCESS[resource] ?? ['none', 'read', 'write']).map((a) => (
                    <option key={a} value={a}>{a}</option>
                  ))}
                </select>
              </label>
            ))}
          </fieldset>
          <button type="submit">Create key</button>
        </form>
      )}
    </>
  );
}
