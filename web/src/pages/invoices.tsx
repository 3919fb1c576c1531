import { invoiceExtras } from '../records/extras/invoice.js';
import { RecordList } from '../records/list.js';
import { invoices } from '../records/resources/invoices.js';
import { RecordPage } from '../records/show.js';
import { recordId } from '../router.js';

/** /dashboard/invoices and /dashboard/invoices/{id}. */
export function Invoices() {
  const id = recordId();
  return id ? <RecordPage key={id} spec={invoices} id={id} extras={invoiceExtras} /> : <RecordList spec={invoices} />;
}
