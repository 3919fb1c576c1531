// Defining or changing a custom field, in a dialog: label (the key suggested from it), type (in
// words), description, required, decimals, options. The API's errors are shown beside the control
// they concern; its 409s carry no path, so their words say which (docs/reference/custom-fields.md).
import { useRef, useState } from 'preact/hooks';
import type { FieldType } from '../../../src/domain/custom-fields.js';
import { api, ApiProblem, newIdempotencyKey } from '../api.js';
import { Modal } from '../components/dialog.js';
import type { FieldDefinition } from '../records/custom-fields.js';
import { allowedTypes, hasOptions, OBJECTS, suggestKey, TYPES, TYPE_WORDS } from './field-types.js';
import { optionDraft, OptionsEditor, type OptionDraft } from './options-editor.js';
import './fields.css';

type Errors = Record<string, string>;

/** The control a 409's message is about: an option in use, a taken key, a type change; else the form. */
function conflictTarget(message: string): string {
  if (/option/i.test(message)) return 'options';
  if (/key|built-in/i.test(message)) return 'key';
  if (/cannot become/i.test(message)) return 'type';
  return '';
}

function errorsOf(problem: ApiProblem): Errors {
  const errors: Errors = {};
  for (const e of problem.errors) errors[e.path] ??= e.message;
  if (problem.errors.length === 0) errors[problem.status === 409 ? conflictTarget(problem.message) : ''] = problem.message;
  return errors;
}

/** `options.2.label` → `2.label`, `options` → `''`: what the options editor shows where. */
const optionErrors = (errors: Errors): Errors =>
  Object.fromEntries(Object.entries(errors).flatMap(([path, m]) => (path === 'options' ? [['', m]] : path.startsWith('options.') ? [[path.slice(8), m]] : [])));

function FieldError(props: { id: string; message: string | undefined }) {
  return props.message ? (
    <p id={props.id} class="field-error">
      {props.message}
    </p>
  ) : null;
}

export function FieldForm(props: {
  object: FieldDefinition['object'];
  field?: FieldDefinition;
  onClose: () => void;
  onSaved: (field: FieldDefinition) => void;
}) {
  const { field } = props;
  const editing = field !== undefined;
  const singular = OBJECTS.find((o) => o.object === props.object)!.singular;
  const [label, setLabel] = useState(field?.label ?? '');
  const [key, setKey] = useState(field?.key ?? '');
  const [keyEdited, setKeyEdited] = useState(editing);
  const [type, setType] = useState<FieldType>(field?.type ?? 'text');
  const [description, setDescription] = useState(field?.description ?? '');
  const [required, setRequired] = useState(field?.required ?? false);
  const [decimals, setDecimals] = useState(field?.decimals === null || field?.decimals === undefined ? '' : String(field.decimals));
  const [options, setOptions] = useState<OptionDraft[]>(() =>
    field?.options ? field.options.map((o) => optionDraft(o.value, o.label, true)) : [optionDraft('', '', false)],
  );
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const idempotencyKey = useRef(newIdempotencyKey());
  const formRef = useRef<HTMLFormElement>(null);
  const id = editing ? `edit-field` : 'new-field';
  const headingId = `${id}-heading`;

  const body = (): Record<string, unknown> => {
    const optionList = options.map((o) => ({ value: o.value.trim(), label: o.label.trim() }));
    const decimalsValue = decimals === '' ? null : Number(decimals);
    const text = description.trim() || null;
    if (!editing) {
      return {
        object: props.object,
        key,
        label: label.trim(),
        type,
        required,
        ...(text ? { description: text } : {}),
        ...(hasOptions(type) ? { options: optionList } : {}),
        ...(type === 'number' && decimalsValue !== null ? { decimals: decimalsValue } : {}),
      };
    }
    // Only what changed: a PATCH of options is the whole list, so it goes only when the list changed.
    const changes: Record<string, unknown> = {};
    if (label.trim() !== field.label) changes.label = label.trim();
    if (text !== field.description) changes.description = text;
    if (required !== field.required) changes.required = required;
    if (type !== field.type) changes.type = type;
    if (type === 'number' && decimalsValue !== field.decimals) changes.decimals = decimalsValue;
    if (hasOptions(type) && JSON.stringify(optionList) !== JSON.stringify(field.options)) changes.options = optionList;
    return changes;
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const sent = body();
      const saved: FieldDefinition = editing
        ? Object.keys(sent).length
          ? await api('PATCH', `/v1/fields/${encodeURIComponent(field.id)}`, sent)
          : field
        : await api('POST', '/v1/fields', sent, { 'idempotency-key': idempotencyKey.current });
      props.onSaved(saved);
    } catch (err) {
      const problem = err instanceof ApiProblem ? err : new ApiProblem(0, 'network', (err as Error).message);
      if (problem.status >= 400 && problem.status < 500) idempotencyKey.current = newIdempotencyKey();
      setErrors(errorsOf(problem));
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], .form-errors')?.focus());
    } finally {
      setBusy(false);
    }
  };

  const invalid = (path: string) => (errors[path] ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${id}-${path}-error` } : {});
  const types = editing ? allowedTypes(field.type) : [...TYPES];
  return (
    <Modal labelledBy={headingId} onCancel={props.onClose} wide>
      <div class="dialog-body">
        <h2 id={headingId}>{editing ? `Edit the field ${field.label}` : `New ${singular} field`}</h2>
        <form ref={formRef} class="record-form field-form" noValidate onSubmit={(e) => void submit(e)}>
          {errors[''] && (
            <div class="warning form-errors" role="alert" tabIndex={-1}>
              <p>{errors['']}</p>
            </div>
          )}
          <div class="form-grid">
            <div class="field">
              <label for={`${id}-label`}>Label</label>
              <input
                id={`${id}-label`}
                data-autofocus
                value={label}
                maxLength={200}
                {...invalid('label')}
                onInput={(e) => {
                  setLabel(e.currentTarget.value);
                  if (!keyEdited) setKey(suggestKey(e.currentTarget.value));
                }}
              />
              <FieldError id={`${id}-label-error`} message={errors.label} />
            </div>
            <div class="field">
              <label for={`${id}-key`}>Key</label>
              {editing ? (
                <>
                  <code id={`${id}-key`} class="field-key">
                    {key}
                  </code>
                  <p class="hint">Fixed once created: integrations, imports and filters use it.</p>
                </>
              ) : (
                <>
                  <input
                    id={`${id}-key`}
                    value={key}
                    maxLength={50}
                    spellcheck={false}
                    autoComplete="off"
                    aria-describedby={errors.key ? `${id}-key-error` : `${id}-key-hint`}
                    aria-invalid={errors.key ? 'true' : undefined}
                    onInput={(e) => {
                      setKey(e.currentTarget.value);
                      setKeyEdited(true);
                    }}
                  />
                  <p id={`${id}-key-hint`} class="hint">
                    {`The name in custom_fields, the API and CSV files: lowercase letters, digits and _.`}
                  </p>
                </>
              )}
              <FieldError id={`${id}-key-error`} message={errors.key} />
            </div>
            {editing ? (
              <div class="field">
                <label for={`${id}-type`}>Type</label>
                {types.length > 1 ? (
                  <select id={`${id}-type`} value={type} {...invalid('type')} onChange={(e) => setType(e.currentTarget.value as FieldType)}>
                    {types.map((t) => (
                      <option key={t} value={t}>
                        {TYPE_WORDS[t].name}
                      </option>
                    ))}
                  </select>
                ) : (
                  <p id={`${id}-type`} class="field-static">
                    {TYPE_WORDS[type].name}
                  </p>
                )}
                <p class="hint">
                  {types.length > 1
                    ? `It can become ${types
                        .slice(1)
                        .map((t) => TYPE_WORDS[t].name.toLowerCase())
                        .join(
                          ' or ',
                        )}, keeping its values${type === 'select' || field.type === 'select' ? ' (each becomes a list of one)' : ''}; no other type.`
                    : 'Fixed: values of another type would not be valid.'}
                </p>
                <FieldError id={`${id}-type-error`} message={errors.type} />
              </div>
            ) : (
              <fieldset class="field field-wide" aria-describedby={errors.type ? `${id}-type-error` : undefined}>
                <legend>Type</legend>
                <div class="type-picker">
                  {types.map((t) => (
                    <label key={t} class={`type-choice${type === t ? ' chosen' : ''}`}>
                      <input
                        type="radio"
                        name={`${id}-type`}
                        value={t}
                        checked={type === t}
                        onChange={() => setType(t)}
                        // Named by the type alone; what it holds is its description (the whole card is its label, to click).
                        aria-label={TYPE_WORDS[t].name}
                        aria-describedby={`${id}-type-${t}`}
                      />
                      <span class="type-name">{TYPE_WORDS[t].name}</span>
                      <span id={`${id}-type-${t}`} class="type-about">
                        {TYPE_WORDS[t].about}
                      </span>
                    </label>
                  ))}
                </div>
                <FieldError id={`${id}-type-error`} message={errors.type} />
              </fieldset>
            )}
            {type === 'number' && (
              <div class="field">
                <label for={`${id}-decimals`}>Decimals</label>
                <select id={`${id}-decimals`} value={decimals} {...invalid('decimals')} onChange={(e) => setDecimals(e.currentTarget.value)}>
                  <option value="">Any</option>
                  <option value="0">None (whole numbers)</option>
                  {[1, 2, 3, 4, 5, 6].map((d) => (
                    <option key={d} value={String(d)}>
                      {String(d)}
                    </option>
                  ))}
                </select>
                <FieldError id={`${id}-decimals-error`} message={errors.decimals} />
              </div>
            )}
            <div class="field field-wide">
              <label for={`${id}-description`}>Description</label>
              <textarea
                id={`${id}-description`}
                rows={2}
                maxLength={1000}
                value={description}
                {...invalid('description')}
                onInput={(e) => setDescription(e.currentTarget.value)}
              />
              <p class="hint">Optional: shown under the field's input in forms.</p>
              <FieldError id={`${id}-description-error`} message={errors.description} />
            </div>
            <div class="field field-check">
              <label class="check">
                <input type="checkbox" checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} aria-describedby={`${id}-required-hint`} />{' '}
                Required
              </label>
              <p id={`${id}-required-hint`} class="hint">
                {`Every new ${singular} must have a value, and a value cannot be cleared.`}
              </p>
            </div>
            {hasOptions(type) && (
              <fieldset class="field field-wide" aria-describedby={`${id}-options-hint`}>
                <legend>Options</legend>
                <p id={`${id}-options-hint`} class="hint">
                  In the order people see them. The value is what records, the API and CSV files hold; an option records hold cannot be removed.
                </p>
                <OptionsEditor idPrefix={`${id}-options`} options={options} onChange={setOptions} errors={optionErrors(errors)} />
              </fieldset>
            )}
          </div>
          <div class="form-actions">
            <button type="submit" disabled={busy}>
              {editing ? 'Save field' : 'Create field'}
            </button>
            <button type="button" onClick={props.onClose}>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </Modal>
  );
}
