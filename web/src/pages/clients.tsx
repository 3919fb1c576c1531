import { clientExtras } from '../records/extras/client.js';
import { RecordList } from '../records/list.js';
import { clients } from '../records/resources/clients.js';
import { RecordPage } from '../records/show.js';
import { recordId } from '../router.js';

/** /dashboard/clients and /dashboard/clients/{id}. */
export function Clients() {
  const id = recordId();
  return id ? <RecordPage key={id} spec={clients} id={id} extras={clientExtras} /> : <RecordList spec={clients} />;
}
