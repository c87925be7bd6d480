// What an image run ends in, for commands (returned to callers and tests), the panel and ImageJobs.
import { isGatewayError } from '../gateway/errors/errors';

export type RunStatus =
  'saved' | 'failed' | 'cancelled' | 'expired' | 'unknown' | 'pending' | 'declined' | 'unavailable' | 'busy';

export interface RunError {
  message: string;
  kind?: string;
  status?: number;
  code?: string;
}

export interface RunResult {
  status: RunStatus;
  /** Uri strings of the saved images. */
  files: string[];
  /** Workspace-relative paths of the saved images. */
  paths: string[];
  localId?: string;
  taskId?: string;
  /** What happened, in words, when it is not a plain success. */
  message?: string;
  error?: RunError;
  /** Progress reports seen while following the request (returned by the commands; tests read them). */
  progress?: Array<{ message: string; percent?: number }>;
  /** The original error, for in-process callers (ImageJobs rethrows GatewayErrors as they are). */
  cause?: unknown;
}

export function result(status: RunStatus, extra: Partial<RunResult> = {}): RunResult {
  return { status, files: [], paths: [], ...extra };
}

/** The plain facts of an error (never the key: GatewayError texts are redacted at the gateway edge). */
export function runError(error: unknown): RunError {
  if (isGatewayError(error)) {
    return { message: error.message, kind: error.kind, status: error.status, code: error.serverCode };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}
