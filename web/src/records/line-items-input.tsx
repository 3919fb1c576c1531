import type { JSX } from 'preact';
import { formatMoney, minorStep } from './format.js';
import { emptyLine, type LineItemDraft } from './form-values.js';

/** A line's amount as the API will compute it (quantity × unit price, to the minor unit), or null while incomplete. */
function amount(line: LineItemDraft): number | null {
  const q = Number(line.quantity);
  const p = Number(line.unit_price);
  if (line.quantity.trim() === '' || line.unit_price.trim() === '' || !Number.isFinite(q) || !Number.isFinite(p)) return null;
  return q * p;
}

/**
 * An invoice's line items: a row per line (description, quantity, unit price, its amount), add and
 * remove lines, the total underneath. The server computes the stored total; this one is a preview.
 * `errors` are the API's, by path inside the list: "0.quantity".
 */
export function LineItemsInput(props: {
  idPrefix: string;
  lines: LineItemDraft[];
  currency: string;
  onChange: (lines: LineItemDraft[]) => void;
  errors: Record<string, string>;
}) {
  const { lines } = props;
  const update = (i: number, patch: Partial<LineItemDraft>) => props.onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const amounts = lines.map(amount);
  const total = amounts.every((a) => a !== null) ? amounts.reduce<number>((s, a) => s + (a ?? 0), 0) : null;
  const cell = (i: number, key: keyof LineItemDraft, label: string, input: (p: Record<string, unknown>) => JSX.Element) => {
    const id = `${props.idPrefix}-${i}-${key}`;
    const error = props.errors[`${i}.${key}`];
    return (
      <div class={`line-cell line-${key}${error ? ' invalid' : ''}`}>
        <label for={id} class="visually-hidden">
          {label}
        </label>
        {input({ id, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': error ? `${id}-error` : undefined })}
        {error && (
          <p id={`${id}-error`} class="field-error">
            {error}
          </p>
        )}
      </div>
    );
  };
  return (
    <div class="line-items-input">
      <div class="line-row line-head" aria-hidden="true">
        <span>Description</span>
        <span>Quantity</span>
        <span>Unit price</span>
        <span class="num">Amount</span>
        <span />
      </div>
      {lines.map((line, i) => {
        const n = i + 1;
        const a = amounts[i] ?? null;
        return (
          <div class="line-row" key={i}>
            {cell(i, 'description', `Line ${n} description`, (p) => (
              <input {...p} type="text" value={line.description} onInput={(e) => update(i, { description: e.currentTarget.value })} />
            ))}
            {cell(i, 'quantity', `Line ${n} quantity`, (p) => (
              <input
                {...p}
                type="number"
                inputMode="decimal"
                min="0"
                step="any"
                value={line.quantity}
                onInput={(e) => update(i, { quantity: e.currentTarget.value })}
              />
            ))}
            {cell(i, 'unit_price', `Line ${n} unit price`, (p) => (
              <input
                {...p}
                type="number"
                inputMode="decimal"
                min="0"
                step={minorStep(props.currency)}
                value={line.unit_price}
                onInput={(e) => update(i, { unit_price: e.currentTarget.value })}
              />
            ))}
            <p class="line-amount num">
              <span class="visually-hidden">{`Line ${n} amount `}</span>
              {a === null ? '—' : formatMoney(a, props.currency)}
            </p>
            <button
              type="button"
              class="quiet"
              disabled={lines.length === 1}
              onClick={() => props.onChange(lines.filter((_, j) => j !== i))}
              aria-label={`Remove line ${n}`}
            >
              Remove
            </button>
          </div>
        );
      })}
      <div class="line-foot">
        <button type="button" onClick={() => props.onChange([...lines, emptyLine()])}>
          Add line
        </button>
        <p class="line-total">
          <span>Total </span>
          <strong class="num" data-testid="form-total">
            {total === null ? '—' : formatMoney(total, props.currency)}
          </strong>
        </p>
      </div>
    </div>
  );
}
