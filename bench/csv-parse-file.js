// Child of bench/csv-parser.js: parses one CSV file as `crm sync import` reads it (64 KiB reads,
// streaming UTF-8 decoding, CsvParser) and prints one JSON line: the time, the rows, the error it
// ended with if any, and this process's peak RSS (VmHWM). A process per run, so that the peak is
// this file's alone. Usage: node bench/csv-parse-file.js PARSER_MODULE FILE [MAX_FIELD_SIZE]
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [moduleFile, file, maxField] = process.argv.slice(2);
const { CsvParser } = await import(pathToFileURL(moduleFile).href);
const parser = new CsvParser(',', maxField ? Number(maxField) : undefined);
const decoder = new TextDecoder('utf-8', { fatal: true });
const buffer = Buffer.allocUnsafe(64 * 1024);
const started = performance.now();
let rows = 0;
let error;
const fd = openSync(file, 'r');
try {
  for (;;) {
    const length = readSync(fd, buffer, 0, buffer.length, null);
    if (length === 0) break;
    rows += parser.push(decoder.decode(buffer.subarray(0, length), { stream: true })).length;
  }
  rows += parser.push(decoder.decode()).length + parser.end().length;
} catch (caught) {
  error = caught.message;
} finally {
  closeSync(fd);
}
const ms = performance.now() - started;
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
process.stdout.write(`${JSON.stringify({ ms, rows, error, peakMb: peakKb / 1024 })}\n`);
