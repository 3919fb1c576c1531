// A tool call in the conversation, as one line that opens: "Searched clients for “acme”", and under
// it the arguments and the result, as indented JSON. A native <details>: Enter and Space open it.
import type { ResourceName } from '../records/describe.js';
import { useRecordName } from '../records/relations.js';
import { keyArguments, resourceOfId, toolWords } from './tools.js';
import type { Step } from './transcript.js';

const STATE_WORDS: Record<Step['state'], string> = {
  running: 'Running…',
  waiting: 'Waiting for you',
  done: '',
  failed: 'Failed',
  cancelled: 'Cancelled: not run',
  stopped: 'Did not finish',
};

/** A record's name where the id stands, once known (the id until then). Text only: the summary line is a toggle, not a link. */
function RecordName(props: { id: string; quoted?: boolean }) {
  const resource = resourceOfId(props.id) as ResourceName;
  const lookup = useRecordName(resource, props.id);
  if (lookup.state !== 'found') return <>{props.id}</>;
  return <>{props.quoted ? `“${lookup.name}”` : lookup.name}</>;
}

/** The step's line: the title (past tense once it ran), the record, the key arguments, the client. */
function StepLabel(props: { step: Step }) {
  const { step } = props;
  const words = toolWords(step.tool);
  const key = keyArguments(step.tool, step.args);
  return (
    <>
      {step.state === 'done' ? words.done : words.title}
      {key.record && (
        <>
          {' '}
          <RecordName id={key.record} quoted />
        </>
      )}
      {key.text && ` ${key.text}`}
      {key.client && (
        <>
          {' for '}
          <RecordName id={key.client} />
        </>
      )}
    </>
  );
}

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

export function StepRow(props: { step: Step }) {
  const { step } = props;
  const stateWords = STATE_WORDS[step.state];
  return (
    <details class={`assistant-step assistant-step-${step.state}`}>
      <summary>
        <span class="assistant-step-icon" aria-hidden="true" />
        <span class="assistant-step-label">
          <StepLabel step={step} />
        </span>
        {stateWords && <span class="assistant-step-state">{stateWords}</span>}
      </summary>
      <div class="assistant-step-body">
        <p class="assistant-step-head">Arguments</p>
        <pre tabIndex={0} aria-label="Arguments">
          {json(step.args)}
        </pre>
        {step.result !== undefined && (
          <>
            <p class="assistant-step-head">{step.state === 'failed' || step.state === 'cancelled' ? 'Answer' : 'Result'}</p>
            <pre tabIndex={0} aria-label="Result">
              {json(step.result)}
            </pre>
          </>
        )}
      </div>
    </details>
  );
}
