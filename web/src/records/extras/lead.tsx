// The lead page's own action: Convert to a client (POST /v1/leads/{id}/convert).
import { useState } from 'preact/hooks';
import { can } from '../../api.js';
import { CreateDialog } from '../create-dialog.js';
import type { FormSpec } from '../describe.js';
import { CLIENT_KINDS } from '../resources/clients.js';
import { leads } from '../resources/leads.js';
import type { RecordContext, RecordExtras } from '../show.js';

/** The conversion's options (LeadConvert): the new client's name and kind; its other fields come from the lead. */
const conversion: FormSpec = {
  singular: 'conversion',
  fields: [
    { key: 'client.name', label: 'Client name', type: 'text', edit: 'create', hint: "The lead's company, else its name" },
    { key: 'client.kind', label: 'Kind', type: 'enum', edit: 'create', options: CLIENT_KINDS },
  ],
};

function Convert(props: { context: RecordContext }) {
  const { record: lead, reload, say } = props.context;
  const [open, setOpen] = useState(false);
  if (lead.status === 'converted' || !can('leads:write') || !can('clients:write')) return null;
  const name = leads.title(lead);
  return (
    <>
      <button type="button" class="primary" onClick={() => setOpen(true)}>
        Convert
      </button>
      {open && (
        <CreateDialog
          spec={conversion}
          path={`/v1/leads/${encodeURIComponent(lead.id)}/convert`}
          heading={`Convert ${name} to a client`}
          submitLabel="Convert to client"
          defaults={{ 'client.name': lead.company || name, 'client.kind': lead.company ? 'company' : 'person' }}
          onClose={() => setOpen(false)}
          onCreated={(result) => {
            say(`Converted: the client ${result.client.name} was created.`);
            reload();
          }}
        />
      )}
    </>
  );
}

export const leadExtras: RecordExtras = {
  actions: (c) => <Convert context={c} />,
};
