// Part of `npm run build` (after tsc): dist/sandbox/seed-1.sqlite, the default seed's data as a
// database image, which a fresh sandbox copies instead of seeding (src/seed/seed-image.ts).
// Made by the compiled seed() itself, into a database with every migration applied.
import { writeFileSync } from 'node:fs';
import { createContext } from '../dist/services/context.js';
import { inTransaction } from '../dist/services/transactions.js';
import { markWholeFileImage, SEED_IMAGE_ASSET, SEED_IMAGE_BASE_URL } from '../dist/seed/seed-image.js';
import { seed } from '../dist/seed/seed.js';
import { openDb } from '../dist/store/db.js';

const db = openDb(':memory:');
const ctx = createContext(db, () => SEED_IMAGE_BASE_URL); // links rewritten on copy
inTransaction(ctx, () => seed(ctx, 1));
// Marked in its header when a new sandbox may take it as its whole file (only seed rows in it).
if (!markWholeFileImage(db)) console.warn('build-seed-image: the seed wrote rows outside its tables; new sandboxes will copy the rows instead of the file.');
const image = db.serialize();
db.close();
writeFileSync(new URL(`../dist/${SEED_IMAGE_ASSET}`, import.meta.url), image);
