import type { ResourceName, ResourceSpec } from '../describe.js';
import { clients } from './clients.js';
import { deals } from './deals.js';
import { invoices } from './invoices.js';
import { leads } from './leads.js';

/** Every resource the record screens show, by name (relations are looked up here). */
export const RESOURCES: Record<ResourceName, ResourceSpec> = { leads, clients, deals, invoices };
