// tsc compiles only .ts: the SQL migrations ship beside the compiled store so that
// dist/ is self-contained (the single-file binary and `npm pack` rely on that).
import { cpSync, mkdirSync } from 'node:fs';

mkdirSync('dist/store/migrations', { recursive: true });
cpSync('src/store/migrations', 'dist/store/migrations', { recursive: true });
