/**
 * A body's UTF-8 bytes as text, without a leading byte-order mark, as undici's `body.text()` (and
 * fetch's) reads them: JSON.parse would refuse a body that starts with one. Its own module, so
 * that the export's render thread (sync/export/render-worker.ts) loads it without the HTTP client.
 */
export function utf8Text(bytes: Uint8Array): string {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start).toString('utf8');
}
