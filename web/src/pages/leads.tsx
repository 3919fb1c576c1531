import { leadExtras } from '../records/extras/lead.js';
import { RecordList } from '../records/list.js';
import { leads } from '../records/resources/leads.js';
import { RecordPage } from '../records/show.js';
import { recordId } from '../router.js';

/** /dashboard/leads and /dashboard/leads/{id}. */
export function Leads() {
  const id = recordId();
  return id ? <RecordPage key={id} spec={leads} id={id} extras={leadExtras} /> : <RecordList spec={leads} />;
}
