import type { Client } from '../schemas/client.js';
import { rowCodec } from './rows.js';

/** A client's own row; its contact persons live in the contacts table. */
export const clientCodec = rowCodec<Omit<Client, 'contacts'>>({ json: ['tags', 'custom_fields', 'address'], omit: ['contacts'] });
