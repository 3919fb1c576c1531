import { useState } from 'preact/hooks';
import { JsonView, ListTable, when } from '../components/table.js';
import { UrlFilter, withFilters } from '../components/search.js';

interface Client {
  id: string;
  name: string;
  kind: string;
  email: string | null;
  created_at: string;
}

export function Clients() {
  const [selected, setSelected] = useState<Client | null>(null);
  return (
    <section>
      <h1>Clients</h1>
      <div class="filters">
        <UrlFilter name="q" label="Search" />
      </div>
      <ListTable<Client>
        caption="Clients"
        path={withFilters('/v1/clients', ['q'])}
        onSelect={setSelected}
        columns={[
          { label: 'Name', value: (c) => c.name },
          { label: 'Kind', value: (c) => c.kind },
          { label: 'Email', value: (c) => c.email ?? '' },
          { label: 'Created', value: (c) => when(c.created_at) },
        ]}
      />
      {selected && <JsonView value={selected} label="Selected client" />}
    </section>
  );
}
