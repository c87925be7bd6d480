// Records each terminal's last command and its output through VS Code's shell integration, as it happens: a
// command's output can only be read while it runs (execution.read() yields what is written after the call), so
// the `terminal` @-mention reads what was recorded here. Output is kept bounded (head and tail).
import * as vscode from 'vscode';
import { HeadTailBuffer } from '../../agentHost/text';
import { DisposableStore } from '../../shared/dispose';
import { TERMINAL_KEEP_CHARS, type TerminalRun } from '../composer/mentions';

interface Recording {
  run: TerminalRun;
  buffer: HeadTailBuffer;
}

export type TerminalState =
  | { kind: 'noTerminal' }
  | { kind: 'noShellIntegration'; terminal: string }
  | { kind: 'noCommand'; terminal: string }
  | { kind: 'run'; terminal: string; run: TerminalRun };

export class TerminalRecorder implements vscode.Disposable {
  /** The last command started in each terminal (finished or still running). */
  private readonly last = new WeakMap<vscode.Terminal, Recording>();
  private readonly disposables = new DisposableStore();

  constructor() {
    // Absent in a host without the API (the mention then says that no shell integration is active).
    const onStart = vscode.window.onDidStartTerminalShellExecution;
    const onEnd = vscode.window.onDidEndTerminalShellExecution;
    if (!onStart || !onEnd) return;
    this.disposables.add(
      onStart((event) => {
        const recording: Recording = {
          run: {
            commandLine: event.execution.commandLine.value,
            output: '',
            cwd: event.execution.cwd?.fsPath,
          },
          buffer: new HeadTailBuffer(TERMINAL_KEEP_CHARS),
        };
        this.last.set(event.terminal, recording);
        void this.consume(event.execution, recording);
      }),
    );
    this.disposables.add(
      onEnd((event) => {
        const recording = this.last.get(event.terminal);
        if (recording && recording.run.commandLine === event.execution.commandLine.value)
          recording.run.exitCode = event.exitCode;
      }),
    );
  }

  private async consume(execution: vscode.TerminalShellExecution, recording: Recording): Promise<void> {
    try {
      for await (const chunk of execution.read()) {
        recording.buffer.push(chunk);
        recording.run.output = recording.buffer.toString();
      }
    } catch {
      // The terminal closed mid-command: what was read so far stays.
    }
  }

  /** What the active terminal offers: its last command's run, or why there is none. */
  state(): TerminalState {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return { kind: 'noTerminal' };
    const recording = this.last.get(terminal);
    if (recording) return { kind: 'run', terminal: terminal.name, run: { ...recording.run } };
    if (!terminal.shellIntegration) return { kind: 'noShellIntegration', terminal: terminal.name };
    return { kind: 'noCommand', terminal: terminal.name };
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
