-- Custom field definitions (docs/reference/custom-fields.md): typed fields a team adds to leads,
-- clients and deals. Records keep their values in their custom_fields JSON, keyed by `key`. The
-- keys records already hold are defined by this migration's second step (store/held-fields.ts),
-- which SQL cannot do alone (ids, and keys that need a new name), so nothing stored is lost.
CREATE TABLE fields (
  id          TEXT PRIMARY KEY,
  object      TEXT NOT NULL,          -- lead, client, deal
  key         TEXT NOT NULL,
  label       TEXT NOT NULL,
  type        TEXT NOT NULL,
  description TEXT,
  required    INTEGER NOT NULL DEFAULT 0 CHECK (required IN (0, 1)),
  options     TEXT,                   -- select, multi_select: JSON [{value, label}], in order
  decimals    INTEGER,                -- number: the decimals a value may have; NULL for any
  position    INTEGER NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  UNIQUE (object, key)
) STRICT;
