// What a long `npm i code-server@…` is doing, in words a person can follow: its output lines (npm's http log,
// install scripts run in the foreground, node-gyp and make) are summarised into a phase ("downloading packages",
// "building native module @vscode/spdlog") and a status line is printed every ~10 s with the elapsed time, so the
// first `npm start` is never minutes behind one silent line.

/** Native modules code-server builds (their build folders name them in make's and node-gyp's lines). */
const NATIVE = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\/build\b/;

/**
 * What one output line says about the install, or undefined when it says nothing a person needs:
 * { phase, detail? } with phase one of 'download', 'script', 'build', 'done'.
 */
export function summarizeInstallLine(line) {
  const text = line.replace(/\x1b\[[0-9;]*m/g, '').trim();
  if (!text) return undefined;
  // npm --loglevel=http: "npm http fetch GET 200 https://registry.npmjs.org/code-server/-/code-server-4.139.1.tgz 812ms"
  const fetched = /\bhttp fetch GET \d{3} (\S+)/.exec(text);
  if (fetched) {
    const name =
      /registry[^/]*\/((?:@[^/]+\/)?[^/]+)\/-\//.exec(fetched[1])?.[1] ??
      /\/((?:@[^/]+\/)?[^/]+)$/.exec(fetched[1])?.[1];
    return { phase: 'download', detail: name ? decodeURIComponent(name) : undefined };
  }
  // Foreground install scripts: "> code-server@4.139.1 postinstall" / "> @vscode/spdlog@0.15.2 install".
  const script = /^> ((?:@[\w.-]+\/)?[\w.-]+)@\S+ (preinstall|install|postinstall)\b/.exec(text);
  if (script) return { phase: 'script', detail: `${script[1]} ${script[2]}` };
  // make: Entering directory '/…/node_modules/@vscode/spdlog/build'
  const entering = /Entering directory '([^']+)'/.exec(text);
  if (entering) {
    const module = NATIVE.exec(entering[1])?.[1];
    if (module) return { phase: 'build', detail: module };
  }
  // make's "  CXX(target) Release/obj.target/spdlog/src/main.o" (node-gyp's compile lines)
  const compiled = /^(?:CXX|CC|SOLINK_MODULE|LINK)\(target\) (\S+)/.exec(text);
  if (compiled) {
    const file = compiled[1].split('/').pop();
    const target = /obj\.target\/([^/]+)\//.exec(compiled[1])?.[1];
    return { phase: 'build', detail: target ? `${target}: ${file}` : file };
  }
  if (/^gyp info spawn\b/.test(text) || /^gyp info using node-gyp/.test(text)) return { phase: 'build' };
  if (/^added \d+ packages?\b/.test(text)) return { phase: 'done', detail: text };
  return undefined;
}

const PHASE_WORDS = {
  download: 'downloading packages',
  script: 'running install scripts',
  build: 'compiling native modules (node-gyp, make, g++)',
  done: 'finishing',
};

/** "1m05s" / "42s". */
export function elapsed(ms) {
  const s = Math.floor(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/**
 * A progress reporter for one long install: feed it output lines; it prints a line when the phase changes (at most
 * one such line per `quietMs`: npm alternates downloads and install scripts) and a status line every `everyMs`
 * while the install runs (elapsed time, phase, the last thing it named, packages downloaded so far). `stop()` ends
 * the timer. `now` and `setInterval` are injectable for tests.
 */
export function installProgress(
  what,
  { log = console.log, everyMs = 10_000, quietMs = 3_000, expected, now = Date.now, timers = globalThis } = {},
) {
  const t0 = now();
  let printedAt = -Infinity;
  let phase;
  let detail;
  let downloads = 0;
  const status = () => {
    const parts = [`[provision] ${elapsed(now() - t0)}${expected ? ` (usually ${expected})` : ''}: ${what}`];
    if (phase) parts.push(PHASE_WORDS[phase]);
    if (downloads > 0) parts.push(`${downloads} downloaded`);
    if (detail) parts.push(`last: ${detail}`);
    return parts.join(' — ');
  };
  const print = () => {
    printedAt = now();
    log(status());
  };
  const timer = timers.setInterval(print, everyMs);
  timer.unref?.();
  return {
    line(text) {
      const s = summarizeInstallLine(text);
      if (!s) return;
      if (s.phase === 'download') downloads++;
      if (s.detail) detail = s.detail;
      if (s.phase !== phase) {
        phase = s.phase;
        if (now() - printedAt >= quietMs) print();
      }
    },
    status,
    stop() {
      timers.clearInterval(timer);
    },
  };
}
