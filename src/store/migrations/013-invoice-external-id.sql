-- Invoices get `external_id` like leads, clients and deals (docs/api.md#bulk-api): the id a record has in
-- another system, unique when set. `crm sync copy` matches a copied invoice by it (the source's
-- invoice id), so a rerun finds the invoice it made instead of making a second one.
ALTER TABLE invoices ADD COLUMN external_id TEXT;
CREATE UNIQUE INDEX invoices_external_id ON invoices (external_id) WHERE external_id IS NOT NULL;
