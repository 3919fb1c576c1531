import { useEffect, useState } from 'preact/hooks';
import { api, can } from '../api.js';
import { confirmAction } from './confirm.js';
import { exactWhen, when } from './table.js';
import { Time } from '../records/fields.js';
import { formatCount } from '../records/format.js';

/** The signed-in key's account (docs/accounts.md): GET /v1/account, its clock and snapshots under /_sandbox. */
interface Account {
  id: string;
  name: string;
  plan: string;
  trial_ends_at: string | null;
  limits: { rate_limit: { limit: number; window_seconds: number } | null; webhook_endpoints: number | null; bulk_records: number };
}
interface Clock {
  now: string;
  offset_seconds: number;
}
interface Snapshot {
  name: string;
  created_at: string;
}

function useAccount(reload: unknown = 0): Account | null {
  const [account, setAccount] = useState<Account | null>(null);
  useEffect(() => void api<Account>('GET', '/v1/account').then(setAccount, () => undefined), [reload]);
  return account;
}

/** One line for the Overview: which account, which plan, when the trial ends. */
export function AccountLine() {
  const account = useAccount();
  if (!account) return null;
  const trial = account.trial_ends_at ? `, trial ends ${when(account.trial_ends_at)}` : '';
  const rate = account.limits.rate_limit
    ? `${formatCount(account.limits.rate_limit.limit)} requests per ${account.limits.rate_limit.window_seconds === 1 ? 'second' : `${formatCount(account.limits.rate_limit.window_seconds)} s`}`
    : 'no rate limit';
  return (
    <p class="account-line">{`Account ${account.name} (${account.id}): ${account.plan} plan${trial}; ${rate}, ${formatCount(account.limits.bulk_records)} records per bulk call.`}</p>
  );
}

/** The Sandbox page's account card: plan and trial, the test clock (advance), snapshots (save, restore, delete). */
export function ClockAndSnapshots() {
  const [reload, setReload] = useState(0);
  const account = useAccount(reload);
  const [clock, setClock] = useState<Clock | null>(null);
  const [snapshots, setSnapshots] = useState<Snapshot[]>([]);
  const [advance, setAdvance] = useState('1d');
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const base = account ? `/_sandbox/accounts/${account.id}` : '';
  useEffect(() => {
    if (!base || !can('*')) return;
    api<Clock>('GET', `${base}/clock`).then(setClock, (e: Error) => setMessage(e.message));
    api<{ data: Snapshot[] }>('GET', `${base}/snapshots`).then(
      (s) => setSnapshots(s.data),
      () => undefined,
    );
  }, [base, reload]);
  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      setMessage(done);
      setReload(reload + 1);
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  const restore = async (s: Snapshot) => {
    const ok = await confirmAction({
      title: `Restore the snapshot ${s.name}?`,
      lose: `The account's records, events, webhook deliveries, idempotency keys and clock go back to ${s.name} (saved ${when(s.created_at)}): everything changed since is lost. API keys, OAuth apps and webhook endpoints stay.`,
      confirmLabel: 'Restore snapshot',
    });
    if (ok) await act(() => api('POST', `${base}/snapshots/${encodeURIComponent(s.name)}/restore`), `Restored ${s.name}.`);
  };
  const remove = async (s: Snapshot) => {
    const ok = await confirmAction({
      title: `Delete the snapshot ${s.name}?`,
      lose: `The saved state ${s.name} is deleted and can no longer be restored. The account's current data is not touched.`,
      confirmLabel: 'Delete snapshot',
    });
    if (ok) await act(() => api('DELETE', `${base}/snapshots/${encodeURIComponent(s.name)}`), `Deleted ${s.name}.`);
  };
  if (!account) return null;
  return (
    <div class="card">
      <h2>Account</h2>
      <p>{`${account.name} (${account.id}), ${account.plan} plan${account.trial_ends_at ? `, trial ends ${when(account.trial_ends_at)}` : ''}`}</p>
      {message && <p role="status">{message}</p>}
      {!can('*') || !clock ? (
        <p>The clock and snapshots need the sandbox admin key.</p>
      ) : (
        <>
          <p>
            {'Clock: '}
            <strong data-testid="clock-now">{exactWhen(clock.now)}</strong>
            {clock.offset_seconds ? ` (${Math.round(clock.offset_seconds / 3600)} h ahead of real time)` : ' (real time)'}
          </p>
          <label for="clock-advance">Advance the clock by (7d, 36h, 90m)</label>
          <input id="clock-advance" value={advance} onInput={(e) => setAdvance(e.currentTarget.value)} />
          <button type="button" onClick={() => void act(() => api('POST', `${base}/clock`, { advance }), `The clock moved forward ${advance}.`)}>
            Advance clock
          </button>
          <label for="snapshot-name">Snapshot name</label>
          <input id="snapshot-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="button" onClick={() => void act(() => api('POST', `${base}/snapshots`, { name }), `Saved snapshot ${name}.`)}>
            Save snapshot
          </button>
          <table>
            <caption>Snapshots</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Saved</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {snapshots.map((s) => (
                <tr key={s.name}>
                  <td>{s.name}</td>
                  <td>
                    <Time iso={s.created_at} />
                  </td>
                  <td>
                    <button type="button" aria-label={`Restore ${s.name}`} onClick={() => void restore(s)}>
                      Restore
                    </button>{' '}
                    <button type="button" aria-label={`Delete ${s.name}`} onClick={() => void remove(s)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
