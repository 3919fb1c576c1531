// The invoice page's own parts: Send and Void, the Overdue badge, the message the sandbox mailed.
import { useEffect, useState } from 'preact/hooks';
import { api, can } from '../../api.js';
import { confirmAction } from '../../components/confirm.js';
import { Time } from '../fields.js';
import { formatMoney } from '../format.js';
import { isOverdue } from '../resources/invoices.js';
import type { RecordContext, RecordExtras } from '../show.js';

interface Message {
  id: string;
  to: string;
  subject: string;
  body: string;
  invoice_id: string | null;
  created_at: string;
}

/** The messages the sandbox "sent" for this invoice (its mailbox, by recipient, then by invoice). */
function InvoiceMail(props: { invoice: Record<string, any> }) {
  const { invoice } = props;
  const [mail, setMail] = useState<Message[] | null>(null);
  useEffect(() => {
    api<{ data: Message[] }>('GET', `/_sandbox/mailbox?to=${encodeURIComponent(invoice.recipient_email)}`).then(
      (m) => setMail(m.data.filter((x) => x.invoice_id === invoice.id)),
      () => setMail([]),
    );
  }, [invoice.id, invoice.status]);
  if (invoice.status === 'draft' || mail === null) return null;
  return (
    <section class="panel" aria-label="Mailbox messages for this invoice">
      <h2>Mailbox</h2>
      {mail.length === 0 && <p class="muted">No message in the mailbox for this invoice.</p>}
      {mail.map((m) => (
        <article key={m.id}>
          <h3>{m.subject}</h3>
          <p class="muted">
            {`To ${m.to}, `}
            <Time iso={m.created_at} />
          </p>
          <pre>{m.body}</pre>
        </article>
      ))}
    </section>
  );
}

function Actions(props: { context: RecordContext }) {
  const { record: invoice, reload, say } = props.context;
  if (!can('invoices:write')) return null;
  const act = async (action: 'send' | 'void', done: string) => {
    try {
      await api('POST', `/v1/invoices/${encodeURIComponent(invoice.id)}/${action}`);
      say(done);
    } catch (e) {
      say((e as Error).message);
    }
    reload();
  };
  const voidIt = async () => {
    const ok = await confirmAction({
      title: `Void the invoice ${invoice.number}?`,
      lose: `${invoice.number} (${formatMoney(invoice.total, invoice.currency)}) can no longer be sent or paid${invoice.payment_link ? ', and its payment link stops working' : ''}. Voiding is final: it cannot be undone.`,
      confirmLabel: 'Void invoice',
    });
    if (ok) await act('void', `${invoice.number} was voided.`);
  };
  return (
    <>
      {invoice.status === 'draft' && (
        <button type="button" class="primary" onClick={() => void act('send', `${invoice.number} was sent to ${invoice.recipient_email}.`)}>
          Send
        </button>
      )}
      {(invoice.status === 'draft' || invoice.status === 'open') && (
        <button type="button" class="danger-outline" onClick={() => void voidIt()}>
          Void
        </button>
      )}
    </>
  );
}

export const invoiceExtras: RecordExtras = {
  actions: (c) => <Actions context={c} />,
  badges: (c) => (isOverdue(c.record) ? <span class="badge badge-overdue">Overdue</span> : null),
  main: (c) => <InvoiceMail invoice={c.record} />,
};
