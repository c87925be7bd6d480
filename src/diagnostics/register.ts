// The diagnostics part of activation: the status bar item and the once-per-value base-URL notice. The
// diagnostics commands are in commands.ts (loaded on first use, src/diagnostics/chunk.ts).
import type * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { watchBaseUrl } from './baseUrlNotice';
import { createStatusBar, type StatusBar } from './statusBar';
import { watchWalkthroughContext } from './walkthroughContext';

export interface DiagnosticsFeature extends vscode.Disposable {
  readonly status: StatusBar;
}

export function registerDiagnostics(services: Services): DiagnosticsFeature {
  const status = createStatusBar(services);
  const notice = watchBaseUrl(services);
  const walkthrough = watchWalkthroughContext(services);
  return {
    status,
    dispose: () => {
      walkthrough.dispose();
      notice.dispose();
      status.dispose();
    },
  };
}
