// A write the assistant proposed, waiting for Run or Cancel (docs/dashboard.md#the-assistant): the
// tool's title, the sandbox's summary of the change, its arguments as a person reads them (money
// in its currency, stages by name, records by name and linking to their pages), a red note when
// it overwrites or deletes, and the two buttons. Nothing is written before Run.
import { useEffect, useRef } from 'preact/hooks';
import type { FieldSpec, ResourceName } from '../records/describe.js';
import { FieldValue } from '../records/fields.js';
import { formatMoney, formatQuantity } from '../records/format.js';
import { RESOURCES } from '../records/resources/index.js';
import { answer, arrivedCard, busy, draft } from './session.js';
import { resourceOfId } from './tools.js';
import type { Card } from './transcript.js';

/** The resource a tool writes (create_deal → deals), whose field descriptions name and format its arguments. */
function toolResource(tool: string): ResourceName | undefined {
  const match = /_(client|lead|deal|invoice)s?(?:_|$)/.exec(tool);
  return match ? (`${match[1]}s` as ResourceName) : undefined;
}

const words = (key: string) => {
  const text = key.replace(/_id$/, '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

interface LineItem {
  description?: string;
  quantity?: number;
  unit_price?: number;
}

/** Each argument as a label and a field description to show it with (or none: shown as text). */
function argumentRows(tool: string, args: Record<string, unknown>): { key: string; label: string; field?: FieldSpec }[] {
  const spec = toolResource(tool) ? RESOURCES[toolResource(tool)!] : undefined;
  const hasMoney = typeof args.value === 'number' || Array.isArray(args.line_items);
  return Object.keys(args)
    .filter((key) => key !== 'idempotency_key' && args[key] !== undefined && !(key === 'currency' && hasMoney))
    .map((key) => {
      const value = args[key];
      const resource = typeof value === 'string' ? resourceOfId(value) : undefined;
      if (resource) {
        const label = key === 'id' ? words(RESOURCES[resource].singular) : words(key);
        return { key, label, field: { key, label, type: 'relation', relation: resource } };
      }
      const field = spec?.fields.find((f) => f.key === key && f.type !== 'line-items');
      return field ? { key, label: field.label, field } : { key, label: words(key) };
    });
}

function PlainValue(props: { value: unknown; currency: unknown }) {
  const { value } = props;
  if (value === null) return <span class="muted">Cleared</span>;
  if (Array.isArray(value) && value.every((v): v is LineItem => typeof v === 'object' && v !== null && 'unit_price' in v)) {
    const currency = String(props.currency ?? '');
    return (
      <ul class="assistant-line-items">
        {value.map((item, i) => (
          <li key={i}>
            {`${formatQuantity(Number(item.quantity ?? 1))} × ${item.description ?? ''} at `}
            <span class="num">{currency ? formatMoney(Number(item.unit_price), currency) : String(item.unit_price)}</span>
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === 'object') return <code class="wrap-anywhere">{JSON.stringify(value)}</code>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  return <span class="wrap-word">{String(value)}</span>;
}

export function ConfirmationCard(props: { card: Card }) {
  const { confirmation, answer: answered } = props.card;
  const id = confirmation.id;
  const ref = useRef<HTMLDivElement>(null);
  const destructive = confirmation.destructive;
  // A card that just arrived takes the focus, unless the user is typing: Run for a plain write,
  // Cancel for one that overwrites or deletes (Enter then never runs it by accident).
  // After the turn's end: its buttons are enabled then.
  const turnOver = !busy.value;
  useEffect(() => {
    if (arrivedCard.value !== id || !turnOver) return;
    arrivedCard.value = null;
    const panel = ref.current?.closest('.assistant');
    const active = document.activeElement;
    if (draft.value.trim() || !(active === document.body || active === null || panel?.contains(active))) return;
    ref.current?.querySelector<HTMLElement>('[data-default]')?.focus();
  }, [id, turnOver]);

  const choose = (approve: boolean) => {
    // The buttons go once answered: the focus goes to the question box, the answer is announced.
    document.getElementById('assistant-input')?.focus();
    void answer(id, approve);
  };
  const pending = answered === 'pending';
  return (
    <div
      ref={ref}
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      class={`assistant-card${destructive ? ' assistant-card-destructive' : ''}`}
    >
      <h3 id={`${id}-title`}>{confirmation.title}</h3>
      <p id={`${id}-summary`} class="assistant-card-summary">
        {confirmation.summary}
      </p>
      <dl class="assistant-args">
        {argumentRows(confirmation.tool, confirmation.arguments).map((row) => (
          <div key={row.key}>
            <dt>{row.label}</dt>
            <dd>
              {row.field ? (
                <FieldValue field={row.field} record={confirmation.arguments} />
              ) : (
                <PlainValue value={confirmation.arguments[row.key]} currency={confirmation.arguments.currency} />
              )}
            </dd>
          </div>
        ))}
      </dl>
      {destructive && (
        <p class="warning" role="note">
          This changes or deletes existing data.
        </p>
      )}
      {pending || answered === 'sending-run' || answered === 'sending-cancel' ? (
        <div class="assistant-card-actions">
          <button type="button" data-default={destructive ? true : undefined} disabled={!pending || busy.value} onClick={() => choose(false)}>
            {answered === 'sending-cancel' ? 'Cancelling…' : 'Cancel'}
          </button>
          <button
            type="button"
            class={destructive ? 'danger' : 'primary'}
            data-default={destructive ? undefined : true}
            disabled={!pending || busy.value}
            onClick={() => choose(true)}
          >
            {answered === 'sending-run' ? 'Running…' : 'Run'}
          </button>
        </div>
      ) : (
        <p class="assistant-card-outcome">{answered === 'approved' ? 'You chose Run.' : 'You chose Cancel: nothing was changed.'}</p>
      )}
    </div>
  );
}
