// Child processes of the benchmark: every spawn goes through here, so that a normal exit, an
// error or Ctrl+C never leaves a sandbox or reference server running in the background.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';

const children = new Set();
const exitHooks = [];

/** Runs fn on exit (also after a signal or a crash); fn must be synchronous. */
export function onExit(fn) {
  exitHooks.push(fn);
}

function killAll(signal) {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

let installed = false;
/** Installs the handlers once; called by run.js before anything is spawned. */
export function installCleanup() {
  if (installed) return;
  installed = true;
  // 'exit' handlers may only do synchronous work: SIGKILL is the one signal that needs no wait.
  process.on('exit', () => {
    killAll('SIGKILL');
    for (const fn of exitHooks.splice(0)) {
      try {
        fn();
      } catch {
        // cleanup is best effort; a failure here must not hide the real exit reason
      }
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
      process.exit(130);
    });
  }
}

/** spawn() that registers the child until it exits. */
export function track(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Asks a child to stop (SIGTERM, so the sandbox closes its database cleanly), then insists. */
export async function stop(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Resolves with the first stdout line of a child that is a JSON object with base_url (both the
 * sandbox and the reference server print one when they listen). Rejects if the child exits first.
 */
export function firstJsonLine(child, timeoutMs = 15000) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => fail(new Error(`no ready line within ${timeoutMs} ms`)), timeoutMs);
    const onExitEarly = (code, signal) => fail(new Error(`exited before it was ready (code ${code}, signal ${signal})`));
    function done() {
      clearTimeout(timer);
      child.off('exit', onExitEarly);
      lines.removeAllListeners('line');
    }
    function fail(error) {
      done();
      reject(error);
    }
    child.once('exit', onExitEarly);
    lines.on('line', (line) => {
      let value;
      try {
        value = JSON.parse(line);
      } catch {
        value = undefined;
      }
      if (!value || typeof value.base_url !== 'string') {
        process.stderr.write(`bench: child ${child.pid} printed: ${line}\n`); // not the ready line
        return;
      }
      done();
      // Keep draining stdout so a chatty child can never block on a full pipe.
      child.stdout.resume();
      resolve(value);
    });
  });
}

// Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ is 100 on every common build).
const TICKS_PER_S = 100;

/**
 * CPU time (user + system, ms) a process has used so far, or null off Linux. Requests/s on a
 * shared machine moves with whatever else runs; CPU time per request hardly does.
 */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return null;
  }
}

/** The floor of every start-up figure: spawning `node -e 0` until it exits, in ms. */
export async function nodeFloorMs() {
  return exitMs(process.execPath, ['-e', '0']);
}

/** Spawn -> exit of a command that must succeed (its output ignored), in ms. */
export async function exitMs(command, args, options = {}) {
  const started = performance.now();
  const child = track(command, args, { stdio: 'ignore', ...options });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${[command, ...args].join(' ')} exited with ${code}`);
  return performance.now() - started;
}
