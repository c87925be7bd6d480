// run_command: runs a command line in a VS Code terminal through shell integration (the user sees it run,
// output is read from the execution, the exit code comes from onDidEndTerminalShellExecution). When shell
// integration is off, or does not activate within 20 s (then for the rest of the window: commandMode.ts), the command
// runs as a child process of the extension host in the workspace folder instead, and the result says so. Output is
// captured head + tail (16 KB); Stop and the timeout send Ctrl+C, then kill.
import { spawn, type ChildProcess } from 'child_process';
import * as vscode from 'vscode';
import { commandWords, type Tool, type ToolContext, type ToolResult } from '../../agent';
import { API_KEY_ENV } from '../../shared/commands';
import { disposeAll } from '../../shared/dispose';
import { linkedArgumentPaths } from '../commandPaths';
import { commandMode, notActivatedReason, WAIT_NOTE_AFTER_MS } from '../commandMode';
import { HARDENED_GIT_ENV, isGitCommand, repositoryConfigRisks } from '../gitConfig';
import { pathTarget } from '../resolve';
import { HeadTailBuffer, stripTerminalEscapes } from '../text';
import { errorResult, ResolvedInputs, str, UNTRUSTED, type Input, type ToolHost } from './common';

export const OUTPUT_CAP_CHARS = 16 * 1024;
export const TERMINAL_NAME = 'Model Gateway Agent';

export interface CommandToolOptions {
  /** How long a new terminal may take to report shell integration (default 20 s). 0: always use a child process. */
  shellIntegrationWaitMs?: number;
  /** After Ctrl+C, how long before the terminal (or process) is killed. Default 3 s. */
  killGraceMs?: number;
}

export interface CommandOutcome {
  mode: 'terminal' | 'process';
  exitCode: number | undefined;
  output: string;
  omitted: number;
  stopped: boolean;
  timedOut: boolean;
  /** Why the terminal was not used (process mode). */
  fallbackReason?: string;
}

/** Why a running command is interrupted: Stop, or its timeout. */
type Interrupt = 'stopped' | 'timeout';

/** The extension's own key never reaches a command the model runs (it could print it). */
const ENV_REMOVED: Record<string, null> = { [API_KEY_ENV]: null };

function waitForShellIntegration(
  terminal: vscode.Terminal,
  ms: number,
): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  if (ms <= 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (v: vscode.TerminalShellIntegration | undefined) => {
      clearTimeout(timer);
      changed.dispose();
      closed.dispose();
      resolve(v);
    };
    const timer = setTimeout(() => done(terminal.shellIntegration), ms);
    const changed = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === terminal) done(e.shellIntegration);
    });
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) done(undefined);
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export class CommandRunner implements vscode.Disposable {
  /** Terminals of this window that are idle, by working folder. */
  private readonly idle = new Map<string, vscode.Terminal>();
  private readonly owned = new Set<vscode.Terminal>();
  private readonly closeListener: vscode.Disposable;
  /** Why shell integration failed earlier in this window: later commands run as processes too (commandMode.ts). */
  private fallback: string | undefined;

  constructor(private readonly options: CommandToolOptions = {}) {
    this.closeListener = vscode.window.onDidCloseTerminal((t) => {
      this.owned.delete(t);
      for (const [k, v] of this.idle) if (v === t) this.idle.delete(k);
    });
  }

  dispose(): void {
    const terminals = [...this.owned];
    this.owned.clear();
    disposeAll([this.closeListener, ...terminals]);
    this.idle.clear();
  }

  async run(
    command: string,
    cwd: vscode.Uri,
    timeoutMs: number,
    ctx: Pick<ToolContext, 'signal' | 'progress'>,
    hardened = false,
  ): Promise<CommandOutcome> {
    // Auto-approved commands get their own terminals, whose environment switches off git's repository programs.
    const key = `${hardened ? 'hardened:' : ''}${cwd.toString()}`;
    const extraEnv: Record<string, string | null> = { ...ENV_REMOVED, ...(hardened ? HARDENED_GIT_ENV : {}) };
    let terminal = this.idle.get(key);
    this.idle.delete(key);
    const choice = commandMode({
      configuredWaitMs: this.options.shellIntegrationWaitMs,
      shellIntegrationEnabled:
        vscode.workspace.getConfiguration('terminal.integrated').get<boolean>('shellIntegration.enabled') !== false,
      earlierFallback: this.fallback,
    });
    if (choice.mode === 'process') return this.inProcess(command, cwd, timeoutMs, ctx, choice.reason, hardened);
    if (!terminal || terminal.exitStatus !== undefined) {
      terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, cwd, env: extraEnv, isTransient: true });
      this.owned.add(terminal);
    }
    terminal.show(true);
    // A shell that starts slowly is not a failure: the card says what it waits for.
    const note = setTimeout(
      () => ctx.progress(`Waiting for the terminal's shell integration (up to ${Math.round(choice.waitMs / 1000)} s)…`),
      WAIT_NOTE_AFTER_MS,
    );
    const si = await waitForShellIntegration(terminal, choice.waitMs).finally(() => clearTimeout(note));
    if (si && !ctx.signal.aborted) {
      const outcome = await this.inTerminal(terminal, si, command, timeoutMs, ctx);
      if (terminal.exitStatus === undefined) this.idle.set(key, terminal);
      return outcome;
    }
    // A terminal without shell integration cannot tell us when the command ends or what it printed.
    terminal.dispose();
    // Stopped while waiting: nothing ran (and a slow shell says nothing about the next command).
    if (ctx.signal.aborted)
      return { mode: 'process', exitCode: undefined, output: '', omitted: 0, stopped: true, timedOut: false };
    this.fallback = notActivatedReason(choice.waitMs);
    return this.inProcess(command, cwd, timeoutMs, ctx, this.fallback, hardened);
  }

  private async inTerminal(
    terminal: vscode.Terminal,
    si: vscode.TerminalShellIntegration,
    command: string,
    timeoutMs: number,
    ctx: Pick<ToolContext, 'signal' | 'progress'>,
  ): Promise<CommandOutcome> {
    const buffer = new HeadTailBuffer(OUTPUT_CAP_CHARS * 2);
    let resolveEnd!: (code: number | undefined) => void;
    const ended = new Promise<number | undefined>((r) => (resolveEnd = r));
    const execution = si.executeCommand(command);
    // Events arrive asynchronously from the renderer, so listening right after executeCommand misses none.
    const endListener = vscode.window.onDidEndTerminalShellExecution((e) => {
      if (e.execution === execution) resolveEnd(e.exitCode);
    });
    // read() right away: output produced before the first read would be lost.
    const stream = execution.read();
    const reading = (async () => {
      let lastProgress = 0;
      for await (const chunk of stream) {
        buffer.push(chunk);
        const now = Date.now();
        if (now - lastProgress > 250) {
          lastProgress = now;
          ctx.progress(stripTerminalEscapes(chunk).slice(-2000));
        }
      }
    })().catch(() => undefined);
    const interrupt = await this.waitOrInterrupt(ended, timeoutMs, ctx.signal);
    let exitCode: number | undefined;
    if (interrupt === undefined) {
      exitCode = await ended;
    } else {
      terminal.sendText('\u0003', false);
      const after = await this.withinGrace(ended);
      if (after === undefined) terminal.dispose();
      exitCode = after?.c;
    }
    endListener.dispose();
    // The stream ends with the execution; a short wait collects its last chunk without hanging on a killed terminal.
    await Promise.race([reading, delay(1000)]);
    return ranOutcome('terminal', buffer, exitCode, interrupt);
  }

  private async inProcess(
    command: string,
    cwd: vscode.Uri,
    timeoutMs: number,
    ctx: Pick<ToolContext, 'signal' | 'progress'>,
    reason: string,
    hardened: boolean,
  ): Promise<CommandOutcome> {
    const buffer = new HeadTailBuffer(OUTPUT_CAP_CHARS * 2);
    const env: NodeJS.ProcessEnv = { ...process.env, ...(hardened ? HARDENED_GIT_ENV : {}) };
    delete env[API_KEY_ENV];
    const posix = process.platform !== 'win32';
    let child: ChildProcess;
    try {
      // detached on POSIX: the command gets its own process group, so Stop ends its children too.
      child = spawn(command, {
        cwd: cwd.fsPath,
        shell: vscode.env.shell || true,
        env,
        detached: posix,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (e) {
      return {
        mode: 'process',
        exitCode: undefined,
        output: `Could not start the command: ${e instanceof Error ? e.message : String(e)}`,
        omitted: 0,
        stopped: false,
        timedOut: false,
        fallbackReason: reason,
      };
    }
    const onData = (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      buffer.push(s);
      ctx.progress(s.slice(-2000));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const ended = new Promise<number | undefined>((resolve) => {
      child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : undefined)));
      child.on('error', (e) => {
        buffer.push(`\n${e.message}\n`);
        resolve(undefined);
      });
    });
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (posix && child.pid) process.kill(-child.pid, sig);
        else if (child.pid) spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true });
      } catch {
        // Already gone.
      }
    };
    const interrupt = await this.waitOrInterrupt(ended, timeoutMs, ctx.signal);
    let exitCode: number | undefined;
    if (interrupt === undefined) {
      exitCode = await ended;
    } else {
      kill('SIGINT');
      const after = await this.withinGrace(ended);
      if (after === undefined) {
        kill('SIGKILL');
        exitCode = await Promise.race([ended, delay(2000).then(() => undefined)]);
      } else {
        exitCode = after.c;
      }
    }
    return { ...ranOutcome('process', buffer, exitCode, interrupt), fallbackReason: reason };
  }

  /** After Ctrl+C (or SIGINT): the exit code if the command ends within the grace time, else undefined (kill it). */
  private withinGrace(ended: Promise<number | undefined>): Promise<{ c: number | undefined } | undefined> {
    return Promise.race([ended.then((c) => ({ c })), delay(this.options.killGraceMs ?? 3000).then(() => undefined)]);
  }

  /** Resolves undefined when the command ended by itself, else why it must be interrupted. */
  private async waitOrInterrupt(
    ended: Promise<unknown>,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<Interrupt | undefined> {
    if (signal.aborted) return 'stopped';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        ended.then(() => undefined),
        new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs))),
        new Promise<'stopped'>((r) => {
          onAbort = () => r('stopped');
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }
}

function signalNumber(sig: NodeJS.Signals): number | undefined {
  return ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[sig];
}

/** The outcome of a command that ran: its output cleaned and capped, and whether (and why) it was interrupted. */
function ranOutcome(
  mode: CommandOutcome['mode'],
  buffer: HeadTailBuffer,
  exitCode: number | undefined,
  interrupt: Interrupt | undefined,
): CommandOutcome {
  const { text, omitted } = finalOutput(buffer);
  return { mode, exitCode, output: text, omitted, stopped: interrupt === 'stopped', timedOut: interrupt === 'timeout' };
}

function finalOutput(buffer: HeadTailBuffer): { text: string; omitted: number } {
  const clean = stripTerminalEscapes(buffer.toString()).trimEnd();
  if (clean.length <= OUTPUT_CAP_CHARS) return { text: clean, omitted: buffer.omitted };
  const half = OUTPUT_CAP_CHARS / 2;
  const dropped = clean.length - OUTPUT_CAP_CHARS;
  return {
    text: `${clean.slice(0, half)}\n[… ${dropped} characters omitted …]\n${clean.slice(clean.length - half)}`,
    omitted: buffer.omitted + dropped,
  };
}

/** The result text the model reads. */
export function commandResultText(command: string, o: CommandOutcome, timeoutMs: number): string {
  const lines: string[] = [];
  if (o.mode === 'process')
    lines.push(
      `[Ran as a background process in the workspace folder, not in a terminal: ${o.fallbackReason ?? 'no terminal'}.]`,
    );
  if (o.stopped)
    lines.push(
      '[Stopped by the user: the command was interrupted (Ctrl+C, then killed if needed); its effects may be partial.]',
    );
  if (o.timedOut)
    lines.push(`[Timed out after ${Math.round(timeoutMs / 1000)} s and was interrupted; its effects may be partial.]`);
  lines.push(
    o.exitCode === undefined ? 'Exit code: unknown (the shell did not report it).' : `Exit code: ${o.exitCode}`,
  );
  lines.push(
    o.output === ''
      ? 'Output: (none)'
      : `Output${o.omitted > 0 ? ` (${o.omitted} characters omitted from the middle)` : ''}:\n${o.output}`,
  );
  return lines.join('\n');
}

export function runCommandTool(host: ToolHost, runner: CommandRunner): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'run_command',
    description:
      'Run a shell command in a VS Code terminal in the workspace folder (the user approves it); returns the exit code and the output (capped at 16 KB).',
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, e.g. "npm test -- --grep parser".' },
        cwd: {
          type: 'string',
          description: 'Working folder relative to the workspace folder. Default: the workspace folder.',
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    approvalClass: 'command',
    async target(input) {
      const command = str(input, 'command', true);
      const { r } = await inputs.targetNow(host, input, 'cwd', '.');
      // The repositories a git command would read its configuration from (only for local folders).
      const repoConfig =
        r.uri.scheme === 'file' && isGitCommand(commandWords(command.trim()))
          ? repositoryConfigRisks(r.realPath)
          : undefined;
      const base = pathTarget(r);
      // Arguments reached through a symlink are judged where they really are (a link to .env, or out of the workspace).
      const linked = r.uri.scheme === 'file' ? await linkedArgumentPaths(command, r.realPath) : [];
      return {
        command,
        ...base,
        paths: [...base.paths, ...linked],
        cwd: r.realPath,
        ...(repoConfig && repoConfig.length > 0 ? { repoConfig } : {}),
        summary:
          r.display === '.'
            ? vscode.l10n.t('Run `{0}`', command)
            : vscode.l10n.t('Run `{0}` in {1}', command, r.display),
      };
    },
    async invoke(input, ctx): Promise<ToolResult> {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const command = str(input, 'command', true);
      if (command.trim() === '') return errorResult('the "command" field is empty.');
      const { snap, r } = await inputs.invokeNow(host, input, 'cwd', '.');
      if (!r.exists) return errorResult(`the working folder ${r.display} does not exist.`);
      if (r.uri.scheme !== 'file')
        return errorResult('commands run only in local folders (this workspace is not on a local file system).');
      const timeoutMs = snap.settings.commandTimeoutMs;
      const hardened = ctx.verdict?.decision === 'auto';
      const outcome = await runner.run(command, vscode.Uri.file(r.realPath), timeoutMs, ctx, hardened);
      return {
        content: commandResultText(command, outcome, timeoutMs),
        isError: outcome.stopped || outcome.timedOut,
        details: {
          command,
          mode: outcome.mode,
          exitCode: outcome.exitCode,
          stopped: outcome.stopped,
          timedOut: outcome.timedOut,
          omitted: outcome.omitted,
        },
      };
    },
  };
}
