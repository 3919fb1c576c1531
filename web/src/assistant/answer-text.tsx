// An answer's words, with the records it names as links to their pages (mentions.ts): "Acme GmbH
// (cli_01J…)" shows as a link "Acme GmbH"; an id with no name before it shows as its record's
// name. Text nodes only (docs/dashboard.md#security-model): the model's words are never markup.
import { Link, recordUrl } from '../components/link.js';
import { useRecordName } from '../records/relations.js';
import { findMentions, type Mention, nameAtEnd, withoutEmphasis } from './mentions.js';

export function AnswerText(props: { text: string; streaming: boolean }) {
  const { mentions, rest } = findMentions(withoutEmphasis(props.text), !props.streaming);
  return (
    <>
      {mentions.map((m, i) => (
        <MentionLink key={`${i}-${m.id}`} mention={m} />
      ))}
      {rest}
    </>
  );
}

function MentionLink(props: { mention: Mention }) {
  const { before, id, resource, parenthesized } = props.mention;
  const lookup = useRecordName(resource, id);
  const href = recordUrl(resource, id);
  const name = lookup.state === 'found' ? lookup.name : null;
  const written = name && parenthesized ? nameAtEnd(before, name) : null;
  if (written) {
    return (
      <>
        {written.lead}
        <Link href={href}>{written.name}</Link>
        {written.trail}
      </>
    );
  }
  // The words before are not its name (or it is not known yet): the link says the name, else the id.
  const link = <Link href={href}>{name ?? id}</Link>;
  return parenthesized ? (
    <>
      {before} ({link})
    </>
  ) : (
    <>
      {before}
      {link}
    </>
  );
}
