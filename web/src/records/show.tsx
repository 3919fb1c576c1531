// A record's own page (/dashboard/leads/{id}…): its fields as a form a person reads, Edit and
// Delete, the resource's own actions and related records (extras), and its history, live.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type ApiProblem, can } from '../api.js';
import { confirmAction } from '../components/confirm.js';
import { Link } from '../components/link.js';
import { navigate } from '../router.js';
import { valueAt, type FieldSpec, type ResourceSpec } from './describe.js';
import { FieldValue, isEmpty } from './fields.js';
import { RecordForm } from './form.js';
import { RecordHistory } from './history.js';
import { forgetName } from './relations.js';
import { heldValueSpecs, useCustomFields } from './custom-fields.js';

export interface RecordContext {
  record: Record<string, any>;
  /** Fetch the record again (after an action). */
  reload: () => void;
  /** A line under the heading (role=status). */
  say: (message: string) => void;
}

export interface RecordExtras {
  /** Buttons in the page header beside Edit and Delete (Convert, Send, Void). */
  actions?: (c: RecordContext) => ComponentChildren;
  /** Beside the heading: badges (Overdue). */
  badges?: (c: RecordContext) => ComponentChildren;
  /** Under the details (contact persons, mailbox messages). */
  main?: (c: RecordContext) => ComponentChildren;
  /** In the side column, above the history (related records). */
  aside?: (c: RecordContext) => ComponentChildren;
}

/** The fields as a read-only form; the status badge is in the page header instead. */
function Details(props: { spec: ResourceSpec; record: Record<string, any>; extra?: FieldSpec[] }) {
  const shown = [...props.spec.fields, ...(props.extra ?? [])].filter(
    (f: FieldSpec) => !f.formOnly && !f.badge && !(f.hideEmpty && isEmpty(valueAt(props.record, f.key))),
  );
  return (
    <dl class="fields">
      {shown.map((f) => {
        const wide = f.type === 'line-items';
        return (
          <div key={f.key} class="contents">
            <dt class={wide ? 'wide' : undefined}>{f.label}</dt>
            <dd class={wide ? 'wide' : undefined}>
              <FieldValue field={f} record={props.record} />
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

export function RecordPage(props: { spec: ResourceSpec; id: string; extras?: RecordExtras }) {
  const { id, extras = {} } = props;
  // The resource's fields and the account's custom fields of it, in their order.
  const custom = useCustomFields(props.spec);
  const spec = custom.spec;
  const [record, setRecord] = useState<Record<string, any> | null>(null);
  const [problem, setProblem] = useState('');
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState('');
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    api('GET', `${spec.path}/${encodeURIComponent(id)}`).then(
      (r) => {
        setRecord(r);
        setProblem('');
      },
      (e: ApiProblem) => setProblem(e.status === 404 ? `There is no ${spec.singular} ${id}: it was deleted, or never existed.` : e.message),
    );
  }, [id, version]);

  const remove = async (r: Record<string, any>) => {
    const name = spec.title(r);
    const ok = await confirmAction({
      title: `Delete the ${spec.singular} ${name}?`,
      lose: spec.deleteLoses ?? `The ${spec.singular} is deleted for good.`,
      confirmLabel: `Delete ${spec.singular}`,
    });
    if (!ok) return;
    try {
      await api('DELETE', `${spec.path}/${encodeURIComponent(r.id)}`);
      forgetName(r.id);
      navigate(`/dashboard/${spec.name}`);
    } catch (e) {
      setMessage((e as Error).message);
    }
  };

  const back = (
    <p class="breadcrumb">
      <Link href={`/dashboard/${spec.name}`}>{spec.plural}</Link>
    </p>
  );
  if (problem && !record) {
    return (
      <section>
        {back}
        <h1>{`${spec.singular[0]!.toUpperCase()}${spec.singular.slice(1)} not found`}</h1>
        <p role="alert">{problem}</p>
      </section>
    );
  }
  if (!record || !custom.ready) return <p class="loading">Loading…</p>;

  const context: RecordContext = { record, reload, say: setMessage };
  const writable = can(`${spec.scope}:write`);
  const editable = writable && (spec.editable?.(record) ?? true);
  const status = spec.fields.find((f) => f.badge);
  return (
    <section>
      {back}
      <header class="page-header">
        <div class="title">
          <h1>{spec.title(record)}</h1>
          {status && <FieldValue field={status} record={record} />}
          {extras.badges?.(context)}
        </div>
        <div class="actions">
          {extras.actions?.(context)}
          {editable && !editing && (
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {writable && spec.deletable && (
            <button type="button" class="danger-outline" onClick={() => void remove(record)}>
              Delete
            </button>
          )}
        </div>
      </header>
      {problem && (
        <p role="alert" class="warning">
          {problem}
        </p>
      )}
      {custom.problem && (
        <p role="alert" class="warning">
          {custom.problem}
        </p>
      )}
      {message && (
        <p role="status" class="notice">
          {message}
        </p>
      )}
      <div class="record">
        <div>
          <section class="panel" aria-labelledby="details-heading">
            <h2 id="details-heading">{editing ? `Edit ${spec.singular}` : 'Details'}</h2>
            {editing ? (
              <RecordForm
                spec={spec}
                mode="edit"
                record={record}
                path={`${spec.path}/${encodeURIComponent(record.id)}`}
                submitLabel="Save"
                idPrefix={`edit-${spec.singular}`}
                onSaved={(r) => {
                  setRecord(r);
                  forgetName(r.id);
                  setEditing(false);
                  setMessage('Saved.');
                }}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <Details spec={spec} record={record} {...(custom.hidden ? { extra: heldValueSpecs(record) } : {})} />
            )}
          </section>
          {extras.main?.(context)}
        </div>
        <aside aria-label="Related and history">
          {extras.aside?.(context)}
          <RecordHistory
            spec={spec}
            record={record as { id: string; created_at: string }}
            onEvent={(e) => {
              if (e.type.endsWith('.deleted')) setProblem(`This ${spec.singular} was deleted.`);
              else reload();
            }}
          />
        </aside>
      </div>
    </section>
  );
}
