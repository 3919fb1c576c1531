// The one confirmation of the dashboard: every destructive action asks here first (docs/dashboard.md),
// naming what will be lost. confirmAction() opens it and resolves true only on the confirm button;
// Cancel, Escape and closing resolve false; confirmWithOption() also says whether the request's one
// checkbox was ticked. <ConfirmHost /> is mounted once, in the layout.
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
  /** A checkbox's label, unticked at first: a harsher variant of the action (confirmWithOption). */
  option?: string | undefined;
}

interface Answer {
  confirmed: boolean;
  option: boolean;
}

const pending = signal<{ request: ConfirmRequest; resolve: (answer: Answer) => void } | null>(null);

export function confirmWithOption(request: ConfirmRequest): Promise<Answer> {
  pending.value?.resolve({ confirmed: false, option: false });
  return new Promise((resolve) => (pending.value = { request, resolve }));
}

export const confirmAction = async (request: ConfirmRequest): Promise<boolean> => (await confirmWithOption(request)).confirmed;

function settle(confirmed: boolean, option = false): void {
  const current = pending.value;
  pending.value = null;
  current?.resolve({ confirmed, option: confirmed && option });
}

function ConfirmDialog(props: { request: ConfirmRequest }) {
  const { request } = props;
  const [typed, setTyped] = useState('');
  const [option, setOption] = useState(false);
  const blocked = request.typeToConfirm !== undefined && typed !== request.typeToConfirm;
  return (
    <Modal labelledBy="confirm-heading" describedBy="confirm-lose" onCancel={() => settle(false)}>
      <form
        class="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) settle(true, option);
        }}
      >
        <h2 id="confirm-heading">{request.title}</h2>
        <p id="confirm-lose">{request.lose}</p>
        {request.warning && (
          <p class="warning" role="note">
            {request.warning}
          </p>
        )}
        {request.option !== undefined && (
          <label class="check">
            <input type="checkbox" checked={option} onChange={(e) => setOption(e.currentTarget.checked)} /> {request.option}
          </label>
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
