// Moving a deal to Lost asks why first, as Pipedrive and HubSpot do: the reason is what a pipeline
// review reads later. Optional (an empty reason loses the deal without one); Cancel, Escape or
// closing leave the card where it was.
import { useState } from 'preact/hooks';
import { Modal } from '../../components/dialog.js';

/** The API's limit on `lost_reason` (schemas/deal.ts). */
const REASON_MAX = 500;

export function LoseDialog(props: { title: string; onLose: (reason: string | undefined) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  return (
    <Modal labelledBy="lose-heading" describedBy="lose-hint" onCancel={props.onCancel}>
      <form
        class="dialog-body"
        onSubmit={(e) => {
          e.preventDefault();
          props.onLose(reason.trim() || undefined);
        }}
      >
        <h2 id="lose-heading">{`Mark ${props.title} as lost?`}</h2>
        <div class="field">
          <label for="lose-reason">Why was it lost? (optional)</label>
          <textarea id="lose-reason" data-autofocus rows={3} maxLength={REASON_MAX} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          <p id="lose-hint" class="hint">
            Kept on the deal as its lost reason; reopening the deal clears it.
          </p>
        </div>
        <div class="dialog-actions">
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Mark as lost
          </button>
        </div>
      </form>
    </Modal>
  );
}
