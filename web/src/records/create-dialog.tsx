import { Modal } from '../components/dialog.js';
import type { FormSpec } from './describe.js';
import { RecordForm } from './form.js';
import type { FormValue } from './form-values.js';
import { useCustomFields } from './custom-fields.js';

/**
 * "New lead" and the like: the create form in a dialog. Mounted once per opening, so each opening
 * has its own Idempotency-Key (RecordForm).
 */
export function CreateDialog(props: {
  spec: FormSpec;
  onClose: () => void;
  onCreated: (record: any) => void;
  /** Where the create is POSTed (a contact's is under its client). */
  path: string;
  heading?: string;
  submitLabel?: string;
  defaults?: Record<string, FormValue>;
}) {
  // A lead's, client's or deal's form has the account's custom fields too (asked once per visit).
  const custom = useCustomFields(props.spec);
  const spec = custom.spec;
  // Not "-title": the form's inputs are `new-${singular}-${field}`, and deals have a `title` field.
  const headingId = `new-${spec.singular}-heading`;
  return (
    <Modal labelledBy={headingId} onCancel={props.onClose} wide>
      <div class="dialog-body">
        <h2 id={headingId}>{props.heading ?? `New ${spec.singular}`}</h2>
        {custom.problem && (
          <p class="warning" role="alert">
            {custom.problem}
          </p>
        )}
        {!custom.ready ? (
          <p class="loading">Loading…</p>
        ) : (
          <RecordForm
            spec={spec}
            mode="create"
            path={props.path}
            submitLabel={props.submitLabel ?? `Create ${spec.singular}`}
            idPrefix={`new-${spec.singular}`}
            {...(props.defaults ? { defaults: props.defaults } : {})}
            onSaved={(r) => {
              props.onClose();
              props.onCreated(r);
            }}
            onCancel={props.onClose}
          />
        )}
      </div>
    </Modal>
  );
}
