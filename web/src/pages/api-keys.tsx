import { useState } from 'preact/hooks';
import { all, api, me } from '../api.js';
import { confirmAction } from '../components/confirm.js';
import { SCOPES } from '../event-types.js';
import { CopyButton, ListTable, when } from '../components/table.js';
import { Time } from '../records/fields.js';

interface Key {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The resources of the scope matrix: each none, read or write (usage and logs are read only). */
const RESOURCES = [...new Set(SCOPES.map((s) => s.split(':')[0]!))];
type Level = 'none' | 'read' | 'write';

const expired = (k: Key): boolean => k.expires_at !== null && Date.parse(k.expires_at) <= Date.now();

function state(k: Key): string {
  if (k.revoked_at) return `revoked ${when(k.revoked_at)}`;
  if (expired(k)) return `expired ${when(k.expires_at)}`;
  return 'active';
}

/**
 * Revoking asks first, naming the key. Two cases lock the user out, so they say so and need the
 * key's name typed: the key this session signed in with (the session ends with it), and the last
 * active admin key (nothing could then make keys or use the sandbox's controls).
 */
async function confirmRevoke(k: Key): Promise<boolean> {
  const own = k.id === me.value?.key_id;
  const admins = k.scopes.includes('*') ? (await all<Key>('/v1/api_keys')).filter((x) => x.scopes.includes('*') && !x.revoked_at && !expired(x)) : [];
  const lastAdmin = admins.length === 1 && admins[0]!.id === k.id;
  // Apps outlive the key that registered them (docs/security.md): a leaked key's apps must be deleted too.
  const apps = (await all<{ name: string; registered_by: string | null }>('/v1/oauth_apps').catch(() => [])).filter((a) => a.registered_by === k.id);
  const one = apps.length === 1;
  const appNote = apps.length
    ? ` It registered ${one ? 'the OAuth app' : `${apps.length} OAuth apps:`} ${apps.map((a) => a.name).join(', ')}, which ${one ? 'keeps' : 'keep'} working: if the key leaked, delete ${one ? 'it' : 'them'} on the OAuth apps page too.`
    : '';
  const warnings = [
    own ? 'This is the key this session signed in with: revoking it signs you out of the dashboard at once.' : '',
    lastAdmin
      ? 'It is the last active admin (*) key: no key will be left that can create keys or use the sandbox controls (reset, clock, snapshots) until the sandbox is started again with a new admin key.'
      : '',
  ].filter(Boolean);
  return confirmAction({
    title: `Revoke the API key ${k.name}?`,
    lose: `Every request made with ${k.name} (${k.prefix}…${k.last4}) is refused with 401 from now on, and sessions signed in with it end. A revoked key cannot be restored.${appNote}`,
    warning: warnings.join(' ') || undefined,
    confirmLabel: 'Revoke key',
    typeToConfirm: warnings.length ? k.name : undefined,
  });
}

export function ApiKeys() {
  const [name, setName] = useState('');
  const [all, setAll] = useState(false);
  const [levels, setLevels] = useState<Record<string, Level>>({});
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [revokeError, setRevokeError] = useState('');
  const [reload, setReload] = useState(0);
  const scopes = () =>
    all
      ? ['*']
      : Object.entries(levels)
          .filter(([, l]) => l !== 'none')
          .map(([r, l]) => `${r}:${l}`);
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const made = await api('POST', '/v1/api_keys', { name, scopes: scopes() });
      setSecret(made.secret);
      setError('');
      setName('');
      setReload(reload + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const revoke = async (k: Key) => {
    try {
      if (!(await confirmRevoke(k))) return;
      await api('DELETE', `/v1/api_keys/${k.id}`);
      setRevokeError('');
      setReload(reload + 1);
    } catch (err) {
      // e.g. a key with scopes the signed-in key lacks: the API's reason, shown above the list.
      setRevokeError((err as Error).message);
    }
  };
  return (
    <section>
      <h1>API keys</h1>
      <form onSubmit={create} class="card">
        <h2>Create a key</h2>
        <label for="key-name">Name</label>
        <input id="key-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} />
        <label class="check">
          <input type="checkbox" checked={all} onChange={() => setAll(!all)} /> All scopes (*)
        </label>
        <table class="matrix">
          <caption>Scopes per resource</caption>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">None</th>
              <th scope="col">Read</th>
              <th scope="col">Write</th>
            </tr>
          </thead>
          <tbody>
            {RESOURCES.map((r) => (
              <tr key={r}>
                <th scope="row">{r}</th>
                {(['none', 'read', 'write'] as Level[]).map((l) => (
                  <td key={l}>
                    {SCOPES.includes(`${r}:${l}` as never) || l === 'none' ? (
                      <input
                        type="radio"
                        name={`scope-${r}`}
                        aria-label={`${r} ${l}`}
                        disabled={all}
                        checked={(levels[r] ?? 'none') === l}
                        onChange={() => setLevels({ ...levels, [r]: l })}
                      />
                    ) : (
                      '—'
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit">Create key</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
      {secret && (
        <div class="card secret" role="status">
          <p>The key's secret, shown once: copy it now.</p>
          <code data-testid="new-secret">{secret}</code> <CopyButton text={secret} label="Copy secret" />
          <button type="button" onClick={() => setSecret('')}>
            Done
          </button>
        </div>
      )}
      {revokeError && (
        <p role="alert" class="error">
          {revokeError}
        </p>
      )}
      <ListTable<Key>
        caption="API keys"
        path="/v1/api_keys"
        reload={reload}
        columns={[
          { label: 'Name', value: (k) => k.name },
          { label: 'Key', value: (k) => `${k.prefix}…${k.last4}` },
          { label: 'Scopes', value: (k) => k.scopes.join(' ') },
          { label: 'Last used', value: (k) => <Time iso={k.last_used_at} /> },
          { label: 'State', value: state },
          {
            label: 'Revoke',
            value: (k) =>
              k.revoked_at ? (
                ''
              ) : (
                <button type="button" onClick={() => void revoke(k)} aria-label={`Revoke ${k.name}`}>
                  Revoke
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}
