import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';

interface Message {
  id: string;
  to: string;
  subject: string;
  body: string;
  created_at: string;
}

/** Sandbox control (the admin key's scope `*`): reset the data, arm faults, read the mailbox. */
export function SandboxPage() {
  const [note, setNote] = useState('');
  const [messages, setMessages] = useState<Message[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [fault, setFault] = useState({ method: 'POST', path_prefix: '/v1/leads', status: '503', count: '1' });
  const loadMail = () => api<{ data: Message[] }>('GET', '/_sandbox/mailbox').then((m) => setMessages(m.data), (e: Error) => setNote(e.message));
  useEffect(() => void loadMail(), []);
  const reset = () =>
    api<{ seeded: boolean }>('POST', '/_sandbox/reset').then(
      (r) => (setConfirming(false), setNote(`Reset${r.seeded ? ' and seeded again' : ''}: API keys, OAuth apps and webhook endpoints stay.`), loadMail()),
      (e: Error) => setNote(e.message),
    );
  const arm = (event: Event) => {
    event.preventDefault();
    api('POST', '/_sandbox/faults', { ...fault, status: Number(fault.status), count: Number(fault.count) }).then(
      () => setNote(`The next ${fault.count} ${fault.method} request(s) under ${fault.path_prefix} fail with ${fault.status}.`),
      (e: Error) => setNote(e.message),
    );
  };
  return (
    <>
      {note && <p role="status">{note}</p>}
      <h2>Reset</h2>
      <p>Deletes every record and event and seeds again as at start. API keys, OAuth apps and webhook endpoints stay.</p>
      {confirming ? (
        <>
          <button type="button" onClick={reset}>Yes, reset the data</button> <button type="button" onClick={() => setConfirming(false)}>Keep it</button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>Reset the sandbox</button>
      )}
      <form class="create" onSubmit={arm}>
        <h2>Faults</h2>
        <label>Method <select value={fault.method} onChange={(e) => setFault({ ...fault, method: e.currentTarget.value })}>{['*', 'GET', 'POST', 'PATCH', 'DELETE'].map((m) => <option key={m}>{m}</option>)}</select></label>
        <label>Path prefix <input value={fault.path_prefix} onInput={(e) => setFault({ ...fault, path_prefix: e.currentTarget.value })} /></label>
        <label>Status <select value={fault.status} onChange={(e) => setFault({ ...fault, status: e.currentTarget.value })}><option>503</option><option>500</option></select></label>
        <label>Count <input type="number" min="1" value={fault.count} onInput={(e) => setFault({ ...fault, count: e.currentTarget.value })} /></label>
        <button type="submit">Arm fault</button>
      </form>
      <table>
        <caption>Mailbox: what the sandbox "sent" (invoice mails with their payment links)</caption>
        <thead>
          <tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Message</th></tr>
        </thead>
        <tbody>
          {messages.map((m) => (
            <tr key={m.id}><td>{m.to}</td><td>{m.subject}</td><td><pre>{m.body}</pre></td></tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
