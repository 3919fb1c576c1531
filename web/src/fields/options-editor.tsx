// The options of a select or multi-select field: add, relabel, remove, and reorder by dragging a
// row or, from the keyboard, with each row's Move up and Move down buttons (the focus stays on the
// button, and a status line says where the option went).
import { useRef, useState } from 'preact/hooks';
import { moved, suggestValue } from './field-types.js';

export interface OptionDraft {
  /** A stable id for keys and focus (a value may still be edited). */
  uid: number;
  value: string;
  label: string;
  /** Already saved: its value is what records hold, so it is shown, not edited. */
  saved: boolean;
  /** The value was typed by hand: the label no longer suggests it. */
  valueEdited: boolean;
}

let nextUid = 1;
export const optionDraft = (value: string, label: string, saved: boolean): OptionDraft => ({ uid: nextUid++, value, label, saved, valueEdited: saved });

export function OptionsEditor(props: {
  idPrefix: string;
  options: OptionDraft[];
  onChange: (options: OptionDraft[]) => void;
  /** The API's messages: `''` for the list as a whole, `${index}.value` / `${index}.label` for one option's part. */
  errors: Record<string, string>;
  describedBy?: string | undefined;
}) {
  const { options, idPrefix, errors } = props;
  const [said, setSaid] = useState('');
  const dragged = useRef<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  const focusLater = (selector: string) => requestAnimationFrame(() => listRef.current?.parentElement?.querySelector<HTMLElement>(selector)?.focus());
  const update = (i: number, change: Partial<OptionDraft>) => props.onChange(options.map((o, j) => (j === i ? { ...o, ...change } : o)));
  const name = (o: OptionDraft, i: number) => o.label.trim() || `option ${i + 1}`;

  const move = (from: number, to: number, by: 'keyboard' | 'drag') => {
    if (to < 0 || to >= options.length || from === to) return;
    const option = options[from]!;
    props.onChange(moved(options, from, to));
    setSaid(`${name(option, from)} moved to position ${to + 1} of ${options.length}.`);
    if (by === 'keyboard') {
      // The same button of the moved row keeps the focus; at the top or bottom the other one (this one is then disabled).
      const up = to < from;
      const atEnd = up ? to === 0 : to === options.length - 1;
      focusLater(`[data-option="${option.uid}"] .move-${atEnd ? (up ? 'down' : 'up') : up ? 'up' : 'down'}`);
    }
  };
  const remove = (i: number) => {
    const option = options[i]!;
    props.onChange(options.filter((_, j) => j !== i));
    setSaid(`${name(option, i)} removed.`);
    const next = options[i + 1] ?? options[i - 1];
    focusLater(next ? `[data-option="${next.uid}"] input` : '.add-option');
  };
  const add = () => {
    const draft = optionDraft('', '', false);
    props.onChange([...options, draft]);
    focusLater(`[data-option="${draft.uid}"] input`);
  };

  return (
    <div class="options-editor">
      {errors[''] && (
        <p id={`${idPrefix}-error`} class="field-error" role="alert">
          {errors['']}
        </p>
      )}
      {options.length > 0 && (
        <div class="option-row option-head" aria-hidden="true">
          <span />
          <span>Label</span>
          <span>Value</span>
          <span />
        </div>
      )}
      <ol ref={listRef} class="option-rows" aria-describedby={props.describedBy}>
        {options.map((o, i) => {
          const labelError = errors[`${i}.label`];
          const valueError = errors[`${i}.value`];
          const rowId = `${idPrefix}-${o.uid}`;
          return (
            <li
              key={o.uid}
              data-option={o.uid}
              class={`option-row${dropAt === i ? ' drop-target' : ''}`}
              onDragOver={(e) => {
                if (dragged.current === null) return;
                e.preventDefault();
                setDropAt(i);
              }}
              onDragLeave={() => setDropAt((at) => (at === i ? null : at))}
              onDrop={(e) => {
                e.preventDefault();
                if (dragged.current !== null) move(dragged.current, i, 'drag');
                dragged.current = null;
                setDropAt(null);
              }}
              onDragEnd={() => {
                dragged.current = null;
                setDropAt(null);
              }}
            >
              {/* Only the handle drags (an input inside a draggable row could not be selected with the mouse); the keyboard's way is Move up / Move down. */}
              <span
                class="drag-handle"
                aria-hidden="true"
                title="Drag to reorder"
                draggable
                onDragStart={(e) => {
                  dragged.current = i;
                  e.dataTransfer?.setData('text/plain', o.label);
                  const row = (e.currentTarget as HTMLElement).closest('li');
                  if (row) e.dataTransfer?.setDragImage(row, 16, 16);
                }}
              >
                ⠿
              </span>
              <div class="option-cell">
                <input
                  id={`${rowId}-label`}
                  aria-label={`Option ${i + 1} label`}
                  aria-invalid={labelError ? 'true' : undefined}
                  aria-describedby={labelError ? `${rowId}-label-error` : undefined}
                  value={o.label}
                  maxLength={200}
                  onInput={(e) => {
                    const label = e.currentTarget.value;
                    update(i, o.saved || o.valueEdited ? { label } : { label, value: suggestValue(label) });
                  }}
                />
                {labelError && (
                  <p id={`${rowId}-label-error`} class="field-error">
                    {labelError}
                  </p>
                )}
              </div>
              <div class="option-cell">
                {o.saved ? (
                  <code class="option-value" title="The value records hold: fixed once saved">
                    {o.value}
                  </code>
                ) : (
                  <input
                    class="option-value"
                    aria-label={`Option ${i + 1} value`}
                    aria-invalid={valueError ? 'true' : undefined}
                    aria-describedby={valueError ? `${rowId}-value-error` : undefined}
                    value={o.value}
                    maxLength={100}
                    spellcheck={false}
                    onInput={(e) => update(i, { value: e.currentTarget.value, valueEdited: true })}
                  />
                )}
                {valueError && (
                  <p id={`${rowId}-value-error`} class="field-error">
                    {valueError}
                  </p>
                )}
              </div>
              <span class="option-actions">
                <button type="button" class="icon move-up" aria-label={`Move ${name(o, i)} up`} disabled={i === 0} onClick={() => move(i, i - 1, 'keyboard')}>
                  ↑
                </button>
                <button
                  type="button"
                  class="icon move-down"
                  aria-label={`Move ${name(o, i)} down`}
                  disabled={i === options.length - 1}
                  onClick={() => move(i, i + 1, 'keyboard')}
                >
                  ↓
                </button>
                <button type="button" class="icon" aria-label={`Remove ${name(o, i)}`} onClick={() => remove(i)}>
                  ×
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <div class="options-foot">
        <button type="button" class="add-option" onClick={add}>
          Add option
        </button>
        <p class="visually-hidden" role="status">
          {said}
        </p>
      </div>
    </div>
  );
}
