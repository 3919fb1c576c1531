import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { JsonView, ListTable, when } from '../components/table.js';
import { UrlFilter, withFilters } from '../components/search.js';

interface Invoice {
  id: string;
  number: string;
  status: string;
  total: number;
  currency: string;
  recipient_email: string;
  payment_link: string | null;
  created_at: string;
}

interface Message {
  id: string;
  to: string;
  subject: string;
  body: string;
  invoice_id: string | null;
  created_at: string;
}

/** The messages the sandbox "sent" for an invoice (the mailbox, by recipient, then by invoice). */
function InvoiceMail(props: { invoice: Invoice }) {
  const [mail, setMail] = useState<Message[] | null>(null);
  useEffect(() => {
    api<{ data: Message[] }>('GET', `/_sandbox/mailbox?to=${encodeURIComponent(props.invoice.recipient_email)}`).then(
      (m) => setMail(m.data.filter((x) => x.invoice_id === props.invoice.id)),
      () => setMail([]),
    );
  }, [props.invoice.id]);
  if (mail === null) return null;
  if (mail.length === 0) return <p>No message in the mailbox for this invoice.</p>;
  return (
    <section aria-label="Mailbox messages for this invoice">
      {mail.map((m) => (
        <article key={m.id} class="card">
          <h2>{m.subject}</h2>
          <p class="muted">{`To ${m.to}, ${when(m.created_at)}`}</p>
          <pre>{m.body}</pre>
        </article>
      ))}
    </section>
  );
}

export function Invoices() {
  const [selected, setSelected] = useState<Invoice | null>(null);
  return (
    <section>
      <h1>Invoices</h1>
      <div class="filters">
        <UrlFilter name="status" label="Status" options={['draft', 'open', 'paid', 'void']} />
        <UrlFilter name="client_id" label="Client id" />
      </div>
      <ListTable<Invoice>
        caption="Invoices"
        path={withFilters('/v1/invoices', ['status', 'client_id'])}
        onSelect={setSelected}
        columns={[
          { label: 'Number', value: (i) => i.number },
          { label: 'Status', value: (i) => i.status },
          { label: 'Total', value: (i) => `${i.total} ${i.currency}` },
          { label: 'Recipient', value: (i) => i.recipient_email },
          // A link only to the sandbox's own payment pages, whatever the data says.
          { label: 'Payment link', value: (i) => (i.payment_link && new URL(i.payment_link).origin === window.location.origin ? <a href={i.payment_link}>Pay page</a> : '—') },
          { label: 'Created', value: (i) => when(i.created_at) },
        ]}
      />
      {selected && <InvoiceMail invoice={selected} />}
      {selected && <JsonView value={selected} label="Selected invoice" />}
    </section>
  );
}
