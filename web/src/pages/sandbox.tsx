import { useEffect, useState } from 'preact/hooks';
import { api, can } from '../api.js';
import { confirmAction } from '../components/confirm.js';
import { ClockAndSnapshots } from '../components/account.js';
import { Time } from '../records/fields.js';

interface Message {
  id: string;
  to: string;
  subject: string;
  created_at: string;
}

/** Sandbox control: reset, faults, the account's clock and snapshots, and the mailbox. All but the mailbox need the admin key (`*`). */
export function Sandbox() {
  const [mail, setMail] = useState<Message[]>([]);
  const [message, setMessage] = useState('');
  const [prefix, setPrefix] = useState('/v1/leads');
  const [count, setCount] = useState('1');
  const load = () =>
    api<{ data: Message[] }>('GET', '/_sandbox/mailbox').then(
      (m) => setMail(m.data),
      (e: Error) => setMessage(e.message),
    );
  useEffect(() => void load(), []);
  const act = async (fn: () => Promise<unknown>, done: string) => {
    try {
      await fn();
      setMessage(done);
      void load();
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  const admin = can('*');
  const reset = async () => {
    const ok = await confirmAction({
      title: 'Reset the sandbox?',
      lose: 'Every lead, client, deal, invoice, event, webhook delivery and mailbox message is deleted, and the seed data is loaded again. API keys, OAuth apps and webhook endpoints stay. Save a snapshot first to keep the current data.',
      confirmLabel: 'Reset sandbox',
    });
    if (ok) await act(() => api('POST', '/_sandbox/reset'), 'The sandbox was reset and seeded again.');
  };
  return (
    <section>
      <h1>Sandbox</h1>
      {message && <p role="status">{message}</p>}
      {admin ? (
        <div class="card">
          <button type="button" class="danger-outline" onClick={() => void reset()}>
            Reset sandbox
          </button>
          <label for="fault-path">Fail requests whose path starts with</label>
          <input id="fault-path" value={prefix} onInput={(e) => setPrefix(e.currentTarget.value)} />
          <label for="fault-count">How many (answered 503)</label>
          <input id="fault-count" value={count} onInput={(e) => setCount(e.currentTarget.value)} inputMode="numeric" />
          <button type="button" onClick={() => void act(() => api('POST', '/_sandbox/faults', { path_prefix: prefix, count: Number(count) }), 'Fault armed.')}>
            Arm fault
          </button>
          <button type="button" onClick={() => void act(() => api('DELETE', '/_sandbox/faults'), 'Faults cleared.')}>
            Clear faults
          </button>
        </div>
      ) : (
        <p>Reset and faults need the admin key (scope *).</p>
      )}
      <ClockAndSnapshots />
      <table>
        <caption>Mailbox, newest first</caption>
        <thead>
          <tr>
            <th scope="col">To</th>
            <th scope="col">Subject</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {mail.map((m) => (
            <tr key={m.id}>
              <td>{m.to}</td>
              <td>{m.subject}</td>
              <td>
                <Time iso={m.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
