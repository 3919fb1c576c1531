// One input per field type (describe.ts), each with its visible label (the field's human name),
// its hint, and the API's validation error beside it, tied together by aria-describedby.
import { CURRENCIES } from '../../../src/domain/money.js';
import type { FieldSpec } from './describe.js';
import { currencyName, decimalStep, minorStep } from './format.js';
import type { FormValue, FormValues, LineItemDraft } from './form-values.js';
import { LineItemsInput } from './line-items-input.js';
import { RelationSelect } from './relation-select.js';

export interface FieldInputProps {
  field: FieldSpec;
  /** The input's id; its hint and error are `${id}-hint` and `${id}-error`. */
  id: string;
  values: FormValues;
  onChange: (value: FormValue) => void;
  /** The API's message for this field (and for line items, their own paths). */
  error?: string | undefined;
  lineErrors?: Record<string, string>;
}

/** The currency picker's options, named when a form first needs them, not while the app starts. */
/** The visible mark of a required field; the input's aria-required says it to a screen reader. */
const RequiredMark = (props: { field: FieldSpec }) =>
  props.field.required ? (
    <span class="required-mark" aria-hidden="true">
      *
    </span>
  ) : null;

let currencyOptions: { code: string; name: string }[] | undefined;
const currencyOptionsOnce = () => (currencyOptions ??= CURRENCIES.map((code) => ({ code, name: currencyName(code) })));

export function FieldInput(props: FieldInputProps) {
  const { field, id, error } = props;
  const value = props.values[field.key];
  const hintId = field.hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-required': field.required ? ('true' as const) : undefined,
  };
  const text = typeof value === 'string' ? value : '';
  const set = (e: { currentTarget: { value: string } }) => props.onChange(e.currentTarget.value);
  const currency = String(props.values[field.currencyKey ?? 'currency'] || 'EUR');

  let control;
  switch (field.type) {
    case 'boolean':
      return (
        <div class={`field field-check${error ? ' invalid' : ''}`}>
          <label class="check">
            <input type="checkbox" {...common} checked={Boolean(value)} onChange={(e) => props.onChange(e.currentTarget.checked)} /> {field.label}
          </label>
          <FieldNotes hint={field.hint} hintId={hintId} error={error} errorId={errorId} />
        </div>
      );
    case 'line-items':
      return (
        <fieldset class="field field-wide" aria-describedby={describedBy}>
          <legend>{field.label}</legend>
          <LineItemsInput idPrefix={id} lines={value as LineItemDraft[]} currency={currency} onChange={props.onChange} errors={props.lineErrors ?? {}} />
          {error && (
            <p id={errorId} class="field-error">
              {error}
            </p>
          )}
        </fieldset>
      );
    case 'multi-select': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      const toggle = (v: string, on: boolean) => props.onChange(on ? [...chosen, v] : chosen.filter((c) => c !== v));
      return (
        <fieldset id={id} class={`field field-wide${error ? ' invalid' : ''}`} aria-describedby={describedBy}>
          <legend>
            {field.label}
            <RequiredMark field={field} />
          </legend>
          <div class="check-group">
            {(field.options ?? []).map((o, i) => (
              <label class="check" key={o.value}>
                <input
                  type="checkbox"
                  id={`${id}-${i}`}
                  aria-invalid={error ? 'true' : undefined}
                  checked={chosen.includes(o.value)}
                  onChange={(e) => toggle(o.value, e.currentTarget.checked)}
                />{' '}
                {o.label}
              </label>
            ))}
          </div>
          <FieldNotes hint={field.hint} hintId={hintId} error={error} errorId={errorId} />
        </fieldset>
      );
    }
    case 'select':
      control = (
        <select {...common} value={text} onChange={set}>
          {(!field.required || !text) && <option value="">—</option>}
          {(field.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
      control = <input {...common} type="number" inputMode="decimal" step={decimalStep(field.decimals)} value={text} onInput={set} />;
      break;
    case 'datetime':
      control = <input {...common} type="datetime-local" value={text} onInput={set} />;
      break;
    case 'longtext':
      control = <textarea {...common} rows={4} value={text} onInput={set} />;
      break;
    case 'enum': {
      const offered = (field.options ?? []).filter((o) => !field.notPickable?.includes(o.value) || o.value === text);
      control = (
        <select {...common} value={text} onChange={set}>
          {!field.required && <option value="">—</option>}
          {offered.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 'currency':
      control = (
        <select {...common} value={text} onChange={set}>
          {!field.required && !text && <option value="">—</option>}
          {currencyOptionsOnce().map((c) => (
            <option key={c.code} value={c.code}>
              {c.code === c.name ? c.code : `${c.code} — ${c.name}`}
            </option>
          ))}
        </select>
      );
      break;
    case 'relation':
      control = (
        <RelationSelect
          id={id}
          field={field}
          value={text}
          onChange={props.onChange}
          filter={field.filterBy ? String(props.values[field.filterBy.field] ?? '') : undefined}
          describedBy={describedBy}
          invalid={Boolean(error)}
        />
      );
      break;
    case 'money':
      control = <input {...common} type="number" inputMode="decimal" min="0" step={minorStep(currency)} value={text} onInput={set} />;
      break;
    case 'date':
      control = <input {...common} type="date" value={text} onInput={set} />;
      break;
    case 'email':
      control = <input {...common} type="email" autoComplete="off" value={text} onInput={set} />;
      break;
    case 'phone':
      control = <input {...common} type="tel" value={text} onInput={set} />;
      break;
    case 'url':
      control = <input {...common} type="url" value={text} onInput={set} />;
      break;
    default:
      control = <input {...common} type="text" value={text} onInput={set} />;
  }
  return (
    <div class={`field${field.type === 'longtext' ? ' field-wide' : ''}${error ? ' invalid' : ''}`}>
      {field.required ? (
        // The mark beside the label, not in it: the input's name stays the field's name.
        <span class="label-line">
          <label for={id}>{field.label}</label>
          <RequiredMark field={field} />
        </span>
      ) : (
        <label for={id}>{field.label}</label>
      )}
      {control}
      <FieldNotes hint={field.hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

/** The hint under an input and its error, with the ids its aria-describedby names. */
function FieldNotes(props: { hint: string | undefined; hintId: string | undefined; error: string | undefined; errorId: string | undefined }) {
  return (
    <>
      {props.hint && (
        <p id={props.hintId} class="hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={props.errorId} class="field-error">
          {props.error}
        </p>
      )}
    </>
  );
}
