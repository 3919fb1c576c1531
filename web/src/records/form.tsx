// The create and edit form of any record, built from its description: labelled inputs, the API's
// validation errors beside the field each names, one Idempotency-Key per create.
import { useRef, useState } from 'preact/hooks';
import { api, ApiProblem, newIdempotencyKey } from '../api.js';
import { fieldForPath, type FieldSpec, type FormSpec } from './describe.js';
import { formFields, initialValues, missingRequired, toBody, type FormValue } from './form-values.js';
import { FieldInput } from './inputs.js';

/** The API's problem split by field: each field's message, line items' own paths, and what names no field. */
function splitErrors(fields: FieldSpec[], problem: ApiProblem): { byField: Record<string, string>; lines: Record<string, string>; rest: string[] } {
  const byField: Record<string, string> = {};
  const lines: Record<string, string> = {};
  const rest: string[] = [];
  for (const e of problem.errors) {
    const field = fieldForPath(fields, e.path);
    if (!field) rest.push(e.path ? `${e.path}: ${e.message}` : e.message);
    else if (field.type === 'line-items' && e.path !== field.key) lines[e.path.slice(field.key.length + 1)] = e.message;
    else byField[field.key] ??= e.message;
  }
  if (problem.errors.length === 0) rest.push(problem.message);
  return { byField, lines, rest };
}

export interface RecordFormProps {
  spec: FormSpec;
  mode: 'create' | 'edit';
  record?: Record<string, any>;
  /** POST to this path when creating, PATCH it when editing. */
  path: string;
  submitLabel: string;
  /** Prefix of the inputs' ids (unique on the page). */
  idPrefix: string;
  /** Values a create starts with (a contact's client, a deal's currency). */
  defaults?: Record<string, FormValue>;
  onSaved: (result: any) => void;
  onCancel: () => void;
}

export function RecordForm(props: RecordFormProps) {
  const { spec, mode } = props;
  const fields = formFields(spec.fields, mode);
  const [values, setValues] = useState(() => initialValues(spec.fields, mode, props.record, props.defaults));
  const [errors, setErrors] = useState<{ byField: Record<string, string>; lines: Record<string, string>; rest: string[] }>({
    byField: {},
    lines: {},
    rest: [],
  });
  const [busy, setBusy] = useState(false);
  // One key per opening of the form: a double click, or a retry after a lost response, sends the
  // same key and the API answers the first result again (docs/reference/limits.md#idempotency) instead of creating twice.
  const idempotencyKey = useRef(newIdempotencyKey());
  // Set synchronously, before any re-render, so the second click of a double click is ignored here too.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  const focusFirstError = () => requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], .form-errors')?.focus());

  const submit = async (e: Event) => {
    e.preventDefault();
    if (inFlight.current) return;
    // Required custom fields are named here, each beside its input, before anything is sent.
    const missing = missingRequired(spec.fields, values, mode);
    if (missing.length) {
      setErrors({
        byField: Object.fromEntries(
          missing.map((f) => [f.key, `${f.label} is required: ${f.type === 'select' || f.type === 'multi-select' ? 'choose one' : 'fill it in'}.`]),
        ),
        lines: {},
        rest: [],
      });
      focusFirstError();
      return;
    }
    inFlight.current = true;
    setBusy(true);
    try {
      const body = toBody(spec.fields, values, mode, props.record);
      const result =
        mode === 'create'
          ? await api('POST', props.path, body, { 'idempotency-key': idempotencyKey.current })
          : Object.keys(body).length
            ? await api('PATCH', props.path, body)
            : props.record;
      props.onSaved(result);
    } catch (err) {
      const problem = err instanceof ApiProblem ? err : new ApiProblem(0, 'network', (err as Error).message);
      // The API answered (and stored that answer under the key): the next submit is a new attempt
      // with a new body, so it needs a new key. A network failure keeps the key for the retry.
      if (problem.status >= 400 && problem.status < 500) idempotencyKey.current = newIdempotencyKey();
      setErrors(splitErrors(spec.fields, problem));
      focusFirstError();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} class="record-form" noValidate onSubmit={(e) => void submit(e)}>
      {errors.rest.length > 0 && (
        <div class="warning form-errors" role="alert" tabIndex={-1}>
          {errors.rest.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      {fields.some((f) => f.required) && (
        // For the eye only: each required input says so itself (aria-required).
        <p class="hint" aria-hidden="true">
          * Required
        </p>
      )}
      <div class="form-grid">
        {fields.map((f) => (
          <FieldInput
            key={f.key}
            field={f}
            id={`${props.idPrefix}-${f.key.replace(/\./g, '-')}`}
            values={values}
            onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))}
            error={errors.byField[f.key]}
            lineErrors={errors.lines}
          />
        ))}
      </div>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
