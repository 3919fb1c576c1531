// One renderer per field type (describe.ts), used by list cells, record pages and history alike.
// Everything from the API is a text node (docs/dashboard.md#security-model): no markup, and links only where their
// target is known to be safe (our own pages, mailto: of a validated address, our payment pages).
import { Link, recordUrl } from '../components/link.js';
import { optionLabel, valueAt, type FieldSpec } from './describe.js';
import { currencyName, formatDate, formatDateTime, formatMoney, formatNumber, formatPercent, formatQuantity } from './format.js';
import { NameStatus } from './name-status.js';
import { useRecordName } from './relations.js';

export const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A time in the user's locale; the exact UTC time on hover. */
/** A date and time in the user's locale, the exact instant on hover; a dash when there is none. */
export function Time(props: { iso: string | null | undefined; dateOnly?: boolean }) {
  if (!props.iso) return <>—</>;
  const { text, exact } = formatDateTime(props.iso, undefined, props.dateOnly);
  return (
    <time dateTime={exact} title={exact}>
      {text}
    </time>
  );
}

export function Badge(props: { value: string; label: string }) {
  return <span class={`badge badge-${props.value.replace(/[^a-z_]/g, '')}`}>{props.label}</span>;
}

/** A related record by its name, linking to its page. */
function RelationLink(props: { resource: FieldSpec['relation'] & string; id: string }) {
  const lookup = useRecordName(props.resource, props.id);
  if (lookup.state !== 'found') return <NameStatus lookup={lookup} id={props.id} />;
  return <Link href={recordUrl(props.resource, props.id)}>{lookup.name}</Link>;
}

/** Only the sandbox's own payment pages become links, whatever the data says. */
function SafeUrl(props: { url: string }) {
  let own = false;
  try {
    own = new URL(props.url).origin === window.location.origin;
  } catch {
    own = false;
  }
  return own ? <a href={props.url}>{props.url}</a> : <span class="wrap-anywhere">{props.url}</span>;
}

/**
 * A custom URL field's value: a link when it is http or https (what the API accepts; a value
 * stored before values were checked may be anything, and then it is text). It opens in a new tab,
 * sending no Referer and giving the page no handle on the dashboard.
 */
function ExternalUrl(props: { url: string }) {
  let web = false;
  try {
    web = ['http:', 'https:'].includes(new URL(props.url).protocol);
  } catch {
    web = false;
  }
  if (!web) return <span class="wrap-anywhere">{props.url}</span>;
  return (
    <a class="wrap-anywhere" href={props.url} target="_blank" rel="noopener noreferrer">
      {props.url}
    </a>
  );
}

/** A select's value as a chip with its option's label (the value itself when no option has it). */
function Chip(props: { field: FieldSpec; value: unknown }) {
  return <span class="chip">{optionLabel(props.field, props.value)}</span>;
}

interface LineItem {
  description: string;
  quantity: number;
  unit_price: number;
  amount: number;
}

function LineItemsTable(props: { items: LineItem[]; currency: string; total?: number }) {
  return (
    <table class="line-items">
      <caption class="visually-hidden">Line items</caption>
      <thead>
        <tr>
          <th scope="col">Description</th>
          <th scope="col" class="num">
            Quantity
          </th>
          <th scope="col" class="num">
            Unit price
          </th>
          <th scope="col" class="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {props.items.map((item, i) => (
          <tr key={i}>
            <td>{item.description}</td>
            <td class="num">{formatQuantity(item.quantity)}</td>
            <td class="num">{formatMoney(item.unit_price, props.currency)}</td>
            <td class="num">{formatMoney(item.amount, props.currency)}</td>
          </tr>
        ))}
      </tbody>
      {props.total !== undefined && (
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td class="num">{formatMoney(props.total, props.currency)}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** The field's value of a record, as a person reads it; `compact` in list cells (a time shows its day). */
export function FieldValue(props: { field: FieldSpec; record: Record<string, any>; compact?: boolean }) {
  const { field, record } = props;
  const value = valueAt(record, field.key);
  // A custom yes/no field may hold no value at all: a dash, as every other empty field (a built-in one is always true or false).
  if (isEmpty(value) && (field.type !== 'boolean' || field.custom)) return <span class="muted">—</span>;
  switch (field.type) {
    case 'email':
      return (
        <a class="wrap-word" href={`mailto:${encodeURIComponent(String(value)).replace(/%40/g, '@')}`}>
          {String(value)}
        </a>
      );
    case 'url':
      return field.custom ? <ExternalUrl url={String(value)} /> : <SafeUrl url={String(value)} />;
    case 'number':
      return <span class="num">{typeof value === 'number' ? formatNumber(value, field.decimals) : String(value)}</span>;
    case 'select':
      return <Chip field={field} value={value} />;
    case 'multi-select':
      return (
        <ul class="chips">
          {(Array.isArray(value) ? value : [value]).map((v) => (
            <li key={String(v)}>
              <Chip field={field} value={v} />
            </li>
          ))}
        </ul>
      );
    case 'enum':
      return field.badge ? <Badge value={String(value)} label={optionLabel(field, value)} /> : <>{optionLabel(field, value)}</>;
    case 'money':
      return <span class="num">{formatMoney(Number(value), String(valueAt(record, field.currencyKey ?? 'currency')))}</span>;
    case 'currency':
      return <span title={currencyName(String(value))}>{String(value)}</span>;
    case 'date':
      return (
        <time dateTime={String(value)} title={String(value)}>
          {formatDate(String(value))}
        </time>
      );
    case 'datetime':
      return <Time iso={String(value)} dateOnly={props.compact} />;
    case 'percent':
      return <>{formatPercent(Number(value))}</>;
    case 'boolean':
      return <>{value ? 'Yes' : 'No'}</>;
    case 'tags':
      return <>{(value as string[]).join(', ')}</>;
    case 'relation':
      return <RelationLink resource={field.relation!} id={String(value)} />;
    case 'line-items':
      return <LineItemsTable items={value as LineItem[]} currency={String(record.currency)} />;
    case 'longtext':
      return <span class="prewrap">{String(value)}</span>;
    default:
      return <span class="wrap-word">{String(value)}</span>;
  }
}
