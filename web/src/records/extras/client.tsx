// The client page's own parts: its contact persons (add, edit, remove) and its deals and invoices.
import { useState } from 'preact/hooks';
import { api, can } from '../../api.js';
import { confirmAction } from '../../components/confirm.js';
import { Modal } from '../../components/dialog.js';
import { CreateDialog } from '../create-dialog.js';
import { Badge } from '../fields.js';
import { formatMoney } from '../format.js';
import { RecordForm } from '../form.js';
import { contactName, contacts } from '../resources/clients.js';
import { DEAL_STAGES, deals } from '../resources/deals.js';
import { INVOICE_STATUSES, invoices } from '../resources/invoices.js';
import type { RecordContext, RecordExtras } from '../show.js';
import { RelatedList } from './related-list.js';

type Contact = Record<string, any> & { id: string };

function EditContact(props: { clientId: string; contact: Contact; onDone: () => void }) {
  return (
    <Modal labelledBy="edit-contact-heading" onCancel={props.onDone} wide>
      <div class="dialog-body">
        <h2 id="edit-contact-heading">{`Edit ${contactName(props.contact)}`}</h2>
        <RecordForm
          spec={contacts}
          mode="edit"
          record={props.contact}
          path={`/v1/clients/${encodeURIComponent(props.clientId)}/contacts/${encodeURIComponent(props.contact.id)}`}
          submitLabel="Save contact"
          idPrefix="edit-contact"
          onSaved={props.onDone}
          onCancel={props.onDone}
        />
      </div>
    </Modal>
  );
}

function Contacts(props: { context: RecordContext }) {
  const { record: client, reload, say } = props.context;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Contact | null>(null);
  const writable = can('clients:write');
  const base = `/v1/clients/${encodeURIComponent(client.id)}/contacts`;
  const remove = async (c: Contact) => {
    const name = contactName(c);
    const ok = await confirmAction({
      title: `Remove ${name} from ${client.name}?`,
      lose: `The contact person ${name} (name, email, phone and role) is deleted from this client for good.`,
      confirmLabel: 'Remove contact',
    });
    if (!ok) return;
    try {
      await api('DELETE', `${base}/${encodeURIComponent(c.id)}`);
      say(`Removed ${name}.`);
    } catch (e) {
      say((e as Error).message);
    }
    reload();
  };
  const list: Contact[] = client.contacts ?? [];
  return (
    <section class="panel" aria-labelledby="contacts-heading">
      <header class="page-header">
        <h2 id="contacts-heading">Contact persons</h2>
        {writable && (
          <button type="button" onClick={() => setAdding(true)}>
            Add contact
          </button>
        )}
      </header>
      {list.length === 0 ? (
        <p class="muted">No contact persons yet.{writable ? ' Add one with Add contact.' : ''}</p>
      ) : (
        <div class="table-wrap">
          <table class="fixed">
            <caption class="visually-hidden">{`Contact persons of ${client.name}`}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email and phone</th>
                {writable && (
                  <th scope="col" class="col-actions">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.id}>
                  <td>
                    {contactName(c)}
                    {c.is_primary && (
                      <>
                        {' '}
                        <span class="badge badge-open">Primary</span>
                      </>
                    )}
                    {c.role && <span class="muted small-line">{c.role}</span>}
                  </td>
                  <td>
                    <span class="truncate" title={c.email ?? undefined}>
                      {c.email ?? '—'}
                    </span>
                    {c.phone && <span class="muted small-line">{c.phone}</span>}
                  </td>
                  {writable && (
                    <td>
                      <span class="actions">
                        <button type="button" aria-label={`Edit ${contactName(c)}`} onClick={() => setEditing(c)}>
                          Edit
                        </button>
                        <button type="button" aria-label={`Remove ${contactName(c)}`} onClick={() => void remove(c)}>
                          Remove
                        </button>
                      </span>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {adding && (
        <CreateDialog
          spec={contacts}
          path={base}
          heading={`Add a contact person to ${client.name}`}
          submitLabel="Add contact"
          onClose={() => setAdding(false)}
          onCreated={(c) => {
            say(`Added ${contactName(c)}.`);
            reload();
          }}
        />
      )}
      {editing && (
        <EditContact
          clientId={client.id}
          contact={editing}
          onDone={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </section>
  );
}

const stageName = (stage: string) => DEAL_STAGES.find((o) => o.value === stage)?.label ?? stage;
const statusName = (status: string) => INVOICE_STATUSES.find((o) => o.value === status)?.label ?? status;

export const clientExtras: RecordExtras = {
  main: (c) => <Contacts context={c} />,
  aside: (c) => (
    <>
      <RelatedList
        title="Deals"
        spec={deals}
        filter={{ client_id: c.record.id }}
        version={c.record.updated_at}
        detail={(d) => (
          <>
            <span class="num">{formatMoney(d.value, d.currency)}</span> <Badge value={d.stage} label={stageName(d.stage)} />
          </>
        )}
      />
      <RelatedList
        title="Invoices"
        spec={invoices}
        filter={{ client_id: c.record.id }}
        version={c.record.updated_at}
        detail={(i) => (
          <>
            <span class="num">{formatMoney(i.total, i.currency)}</span> <Badge value={i.status} label={statusName(i.status)} />
          </>
        )}
      />
    </>
  ),
};
