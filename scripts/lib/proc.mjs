// Small process helpers shared by the harness scripts: run a command with inherited or captured
// output, track every child we start so it can be killed (by pid, with its process group) on exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';

/** Children started by this process, killed by killAll(). */
const children = new Set();

/**
 * Runs a command to completion; rejects on non-zero exit. Returns captured stdout when capture is set. `onLine`
 * (with quiet, capture or prefix) is called with every output line, stdout and stderr, as it arrives. `timeoutMs` kills it
 * after that long in all; `idleMs` only after that long without any output (a hang, not a slow machine), calling
 * `onIdle` first.
 */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((f) => fs.existsSync(f));

/**
 * [cmd, args] to run `cmd args` at a lower CPU priority (nice `level`) where nice exists: for work that can wait
 * behind the VS Code layers (on 2 cores those end the run), and that has no tight clock of its own.
 */
export function niced(level, cmd, args) {
  return NICE ? [NICE, ['-n', String(level), cmd, ...args]] : [cmd, args];
}

export function run(cmd, args, opts = {}) {
  const { capture = false, env, cwd, quiet = false, timeoutMs, idleMs, onIdle, prefix, onLine } = opts;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: env ?? process.env,
      detached: true,
      stdio: capture || quiet || prefix ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    children.add(child);
    let out = '';
    let err = '';
    if (prefix && !capture && !quiet) {
      // Two layers may run at once: every line says which one it comes from.
      child.stdout.pipe(prefixLines(prefix, process.stdout));
      child.stderr.pipe(prefixLines(prefix, process.stderr));
    } else {
      child.stdout?.on('data', (d) => {
        out += d;
      });
      child.stderr?.on('data', (d) => {
        err += d;
      });
    }
    if (onLine) {
      const lines = (stream) => {
        let pending = '';
        stream?.on('data', (d) => {
          const parts = (pending + d).split(/\r?\n|\r/);
          pending = parts.pop();
          for (const line of parts) onLine(line);
        });
        stream?.on('end', () => pending && onLine(pending));
      };
      lines(child.stdout);
      lines(child.stderr);
    }
    const timer = timeoutMs ? setTimeout(() => killTree(child), timeoutMs) : undefined;
    let idleTimer;
    const stillAlive = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        onIdle?.();
        killTree(child);
      }, idleMs);
    };
    if (idleMs) {
      stillAlive();
      child.stdout?.on('data', stillAlive);
      child.stderr?.on('data', stillAlive);
    }
    child.on('error', (e) => {
      clearTimeout(timer);
      clearTimeout(idleTimer);
      children.delete(child);
      reject(e);
    });
    // 'close' waits for the output pipes, which a grandchild left running (a browser, a server) can hold open after
    // the command itself has ended: a few seconds after 'exit', what is left of its process group is killed and the
    // pipes are let go, so a finished command never waits out an idle clock.
    let closed = false;
    child.on('exit', () => {
      const settle = setTimeout(() => {
        if (closed) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* the group is gone */
        }
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.emit('close', child.exitCode, child.signalCode);
      }, 5000);
      settle.unref();
    });
    child.on('close', (code, signal) => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      clearTimeout(idleTimer);
      children.delete(child);
      if (code === 0) resolve(out);
      else {
        const tail = (out + err).split('\n').slice(-40).join('\n');
        reject(
          new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}${quiet || capture ? `\n${tail}` : ''}`),
        );
      }
    });
  });
}

/** A writable that forwards whole lines to dest, each starting with prefix. */
export function prefixLines(prefix, dest) {
  let pending = '';
  return new Writable({
    write(chunk, _enc, cb) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      if (lines.length) dest.write(lines.map((l) => `${prefix} ${l}\n`).join(''));
      cb();
    },
    final(cb) {
      if (pending) dest.write(`${prefix} ${pending}\n`);
      cb();
    },
  });
}

/** Starts a long-running child in its own process group; it is killed by killAll(). */
export function start(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/**
 * A child's stdout and stderr into one log file, ended when the process has closed both. With pipe()'s default the
 * first stream to end ended the file, and the other's next line crashed the harness (write after end: seen once when
 * a layer's code-server was stopped). A log that cannot be written does not end the run either.
 */
export function logBothStreams(child, file) {
  const log = fs.createWriteStream(file);
  log.on('error', () => undefined);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.on('close', () => log.end());
  return log;
}

/** Kills a child and its process group (we start every child detached, so its pid is the group id). */
export function killTree(child, signal = 'SIGTERM') {
  if (!child.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

let stopping = false;

/** True once killAll() has begun: children exiting from then on are expected. */
export function isStopping() {
  return stopping;
}

/** Kills every child we started, then SIGKILLs what is left after a grace period. */
export async function killAll(graceMs = 3000) {
  stopping = true;
  const list = [...children];
  for (const c of list) killTree(c);
  const deadline = Date.now() + graceMs;
  while (list.some((c) => c.exitCode === null && c.signalCode === null) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const c of list) if (c.exitCode === null && c.signalCode === null) killTree(c, 'SIGKILL');
}

/** Installs handlers so Ctrl+C / SIGTERM kill our children before exiting. */
export function killChildrenOnExit() {
  let stopping = false;
  const stop = (sig) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n[harness] ${sig}: stopping everything we started`);
    void killAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('exit', () => {
    for (const c of children) killTree(c, 'SIGKILL');
  });
}

/** Returns a free TCP port on 127.0.0.1 (asks the OS for port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** True when a TCP port on 127.0.0.1 can be bound. */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** Seconds since t0, one decimal. */
export function secs(t0) {
  return ((Date.now() - t0) / 1000).toFixed(1);
}

/** Takes a lock directory if free (or held by a dead pid); returns its release function, or the live owner pid. */
function tryLock(dir) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    fs.mkdirSync(dir);
  } catch {
    let pid = NaN;
    try {
      pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8').trim());
    } catch {
      /* being created */
    }
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      fs.rmSync(dir, { recursive: true, force: true });
      return tryLock(dir);
    }
    return { owner: pid };
  }
  fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    let owner = '';
    try {
      owner = fs.readFileSync(path.join(dir, 'pid'), 'utf8').trim();
    } catch {
      /* gone */
    }
    if (owner === String(process.pid)) fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', release);
  return { release };
}

/**
 * Takes the first free lock directory of dirs, polling until one is free or giveUp() says to stop;
 * resolves {slot, release} or undefined (gave up). onWait(pids) is called once when all are held.
 */
export async function acquireSlot(dirs, { giveUp = () => false, onWait } = {}) {
  let told = false;
  for (;;) {
    if (giveUp()) return undefined;
    const owners = [];
    for (let i = 0; i < dirs.length; i++) {
      const got = tryLock(dirs[i]);
      if (got.release) return { slot: i, release: got.release };
      owners.push(got.owner);
    }
    if (!told && owners.every((o) => Number.isInteger(o))) {
      told = true;
      onWait?.(owners);
    }
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 1000));
  }
}

/**
 * Runs fn(slotIndex) while holding one of the lock directories (mkdir is atomic; a lock of a dead pid is
 * broken). onWait(pids) is called once when all are held by live processes.
 */
export async function withSlotLock(dirs, fn, onWait) {
  let told = false;
  for (;;) {
    const owners = [];
    for (let i = 0; i < dirs.length; i++) {
      const got = tryLock(dirs[i]);
      if (got.release) {
        try {
          return await fn(i);
        } finally {
          got.release();
        }
      }
      owners.push(got.owner);
    }
    if (!told && owners.every((o) => Number.isInteger(o))) {
      told = true;
      onWait?.(owners);
    }
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 1000));
  }
}

/** Runs fn while holding a lock directory. */
export function withDirLock(dir, fn, onWait) {
  return withSlotLock(
    [dir],
    () => fn(),
    (owners) => onWait?.(owners[0]),
  );
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}
