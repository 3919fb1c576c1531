import { useState } from 'preact/hooks';
import { JsonView, ListTable, when } from '../components/table.js';
import { UrlFilter, withFilters } from '../components/search.js';

interface Lead {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  company: string | null;
  status: string;
  created_at: string;
}

export function Leads() {
  const [selected, setSelected] = useState<Lead | null>(null);
  return (
    <section>
      <h1>Leads</h1>
      <div class="filters">
        <UrlFilter name="status" label="Status" options={['new', 'contacted', 'qualified', 'unqualified', 'converted']} />
        <UrlFilter name="email" label="Email" />
      </div>
      <ListTable<Lead>
        caption="Leads, oldest first"
        path={withFilters('/v1/leads', ['status', 'email'])}
        onSelect={setSelected}
        columns={[
          { label: 'Name', value: (l) => [l.first_name, l.last_name].filter(Boolean).join(' ') || l.id },
          { label: 'Company', value: (l) => l.company ?? '' },
          { label: 'Email', value: (l) => l.email ?? '' },
          { label: 'Status', value: (l) => l.status },
          { label: 'Created', value: (l) => when(l.created_at) },
        ]}
      />
      {selected && <JsonView value={selected} label="Selected lead" />}
    </section>
  );
}
