// The one confirmation of the dashboard: every destructive action asks here first (API.md §15),
// naming what will be lost. confirmAction() opens it and resolves true only on the confirm button;
// Cancel, Escape and closing resolve false. <ConfirmHost /> is mounted once, in the layout.
import { signal } from '@preact/signals';
import { useState } from 'preact/hooks';
import { Modal } from './dialog.js';

export interface ConfirmRequest {
  /** The question, naming the thing: "Delete the lead Ada Lovelace?" */
  title: string;
  /** What will be lost, in plain words. */
  lose: string;
  /** A louder line when the action hurts the user themselves (their own key, the last admin key). */
  warning?: string | undefined;
  /** The confirm button's name, a verb and its object: "Delete lead". */
  confirmLabel: string;
  /** When set, the button works only once this exact text is typed. */
  typeToConfirm?: string | undefined;
}

const pending = signal<{ request: ConfirmRequest; resolve: (ok: boolean) => void } | null>(null);

export function confirmAction(request: ConfirmRequest): Promise<boolean> {
  pending.value?.resolve(false);
  return new Promise((resolve) => (pending.value = { request, resolve }));
}

function settle(ok: boolean): void {
  const current = pending.value;
  pending.value = null;
  current?.resolve(ok);
}

function ConfirmDialog(props: { request: ConfirmRequest }) {
  const { request } = props;
  const [typed, setTyped] = useState('');
  const blocked = request.typeToConfirm !== undefined && typed !== request.typeToConfirm;
  return (
    <Modal labelledBy="confirm-heading" describedBy="confirm-lose" onCancel={() => settle(false)}>
      <form
        class="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) settle(true);
        }}
      >
        <h2 id="confirm-heading">{request.title}</h2>
        <p id="confirm-lose">{request.lose}</p>
        {request.warning && (
          <p class="warning" role="note">
            {request.warning}
          </p>
        )}
        {request.typeToConfirm !== undefined && (
          <div class="field">
            <label for="confirm-typed">{`Type ${request.typeToConfirm} to confirm`}</label>
            <input id="confirm-typed" data-autofocus autoComplete="off" spellcheck={false} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
          </div>
        )}
        <div class="dialog-actions">
          <button type="button" data-autofocus={request.typeToConfirm === undefined ? true : undefined} onClick={() => settle(false)}>
            Cancel
          </button>
          <button type="submit" class="danger" disabled={blocked}>
            {request.confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function ConfirmHost() {
  const current = pending.value;
  return current ? <ConfirmDialog key={current.request.title + current.request.confirmLabel} request={current.request} /> : null;
}
