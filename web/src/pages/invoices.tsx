import { useState } from 'preact/hooks';
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

export function Invoices() {
  const [selected, setSelected] = useState<Invoice | null>(null);
  return (
    <section>
      <h1>Invoices</h1>
      <div class="filters">
        <UrlFilter name="status" label="Status" options={['draft', 'open', 'paid', 'void']} />
      </div>
      <ListTable<Invoice>
        caption="Invoices"
        path={withFilters('/v1/invoices', ['status'])}
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
      {selected && <JsonView value={selected} label="Selected invoice" />}
    </section>
  );
}
