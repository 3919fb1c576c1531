// Settings → Fields (/dashboard/fields?object=client): the custom fields of leads, clients and deals,
// in their order; define, change and delete them (docs/dashboard.md#custom-fields).
import { useState } from 'preact/hooks';
import type { FieldObject } from '../../../src/domain/custom-fields.js';
import { api, can } from '../api.js';
import { confirmAction } from '../components/confirm.js';
import { FieldForm } from '../fields/field-form.js';
import '../fields/fields.css';
import { hasOptions, OBJECTS, TYPE_WORDS } from '../fields/field-types.js';
import { type FieldDefinition, refreshDefinitions, useDefinitions } from '../records/custom-fields.js';
import { formatCount } from '../records/format.js';
import { query, setQuery } from '../router.js';

const objectOf = (): FieldObject => (OBJECTS.some((o) => o.object === query('object')) ? (query('object') as FieldObject) : 'client');

/** "3 clients", "1 client" */
const records = (n: number, singular: string) => `${formatCount(n)} ${singular}${n === 1 ? '' : 's'}`;

export function Fields() {
  const object = objectOf();
  const { singular, plural } = OBJECTS.find((o) => o.object === object)!;
  const definitions = useDefinitions(object);
  const [form, setForm] = useState<{ field?: FieldDefinition } | null>(null);
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState('');
  const writable = can('fields:write');

  if (!can('fields:read')) {
    return (
      <section>
        <h1>Custom fields</h1>
        <p role="alert" class="warning">
          This session's API key lacks fields:read: sign in with a key that has it to see the custom fields.
        </p>
      </section>
    );
  }

  const remove = async (field: FieldDefinition) => {
    setProblem('');
    try {
      const { records_with_values: held } = await api<{ records_with_values: number }>('GET', `/v1/fields/${encodeURIComponent(field.id)}/usage`);
      const ok = await confirmAction({
        title: `Delete the field ${field.label}?`,
        lose:
          held === 0
            ? `No ${singular} holds a value for it. The field goes from every ${singular}'s page and form, and from the API.`
            : `${records(held, singular)} hold a value for it: those values are removed from ${held === 1 ? 'it' : 'them'} for good, with the field, from every page, form and the API.`,
        confirmLabel: 'Delete field',
      });
      if (!ok) return;
      const done = await api<{ values_removed: number }>('DELETE', `/v1/fields/${encodeURIComponent(field.id)}`);
      setMessage(`Deleted the field ${field.label}${done.values_removed ? `, and its values on ${records(done.values_removed, singular)}` : ''}.`);
      await refreshDefinitions(object);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };

  const fields = definitions.state === 'ready' ? definitions.fields : [];
  return (
    <section>
      <header class="page-header">
        <h1>Custom fields</h1>
        {writable && (
          <button type="button" class="primary" onClick={() => setForm({})}>
            {`New ${singular} field`}
          </button>
        )}
      </header>
      <p class="lede">Fields your team adds to leads, clients and deals. Each shows on the record's page and in its forms, in this order.</p>
      <div class="actions view-switch" role="group" aria-label="Object">
        {OBJECTS.map((o) => (
          <button key={o.object} type="button" aria-pressed={o.object === object} onClick={() => setQuery({ object: o.object === 'client' ? '' : o.object })}>
            {o.plural}
          </button>
        ))}
      </div>
      {message && (
        <p role="status" class="notice">
          {message}
        </p>
      )}
      {problem && (
        <p role="alert" class="warning">
          {problem}
        </p>
      )}
      {definitions.state === 'failed' && (
        <p role="alert" class="warning">
          {definitions.message}
        </p>
      )}
      <div class="table-wrap">
        <table class="fields-table">
          <caption>{`Custom fields of ${plural.toLowerCase()}, in order`}</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Key</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col" class="num">
                Options
              </th>
              {writable && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {definitions.state === 'loading' && (
              <tr>
                <td colSpan={6} class="empty">
                  Loading…
                </td>
              </tr>
            )}
            {definitions.state === 'ready' && fields.length === 0 && (
              <tr>
                <td colSpan={6} class="empty">
                  {`No custom fields on ${plural.toLowerCase()} yet.${writable ? ` Add one with New ${singular} field.` : ''}`}
                </td>
              </tr>
            )}
            {fields.map((f) => (
              <tr key={f.id}>
                <td>
                  <span class="field-label">{f.label}</span>
                  {f.description && <span class="small-line muted">{f.description}</span>}
                </td>
                <td>
                  <code class="nowrap">{f.key}</code>
                </td>
                <td class="nowrap">{TYPE_WORDS[f.type].name}</td>
                <td>{f.required ? 'Required' : <span class="muted">Optional</span>}</td>
                <td class="num">{hasOptions(f.type) ? formatCount(f.options?.length ?? 0) : <span class="muted">—</span>}</td>
                {writable && (
                  <td>
                    <span class="actions">
                      <button type="button" aria-label={`Edit ${f.label}`} onClick={() => setForm({ field: f })}>
                        Edit
                      </button>
                      <button type="button" class="danger-outline" aria-label={`Delete ${f.label}`} onClick={() => void remove(f)}>
                        Delete
                      </button>
                    </span>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {form && (
        <FieldForm
          object={object}
          {...(form.field ? { field: form.field } : {})}
          onClose={() => setForm(null)}
          onSaved={(saved) => {
            setForm(null);
            setProblem('');
            setMessage(form.field ? `Saved the field ${saved.label}.` : `Created the field ${saved.label} (${saved.key}).`);
            void refreshDefinitions(object);
          }}
        />
      )}
    </section>
  );
}
