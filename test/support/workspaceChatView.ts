// The chat view suite of the agent suites that work on workspace files against the emulator (its own file: chatView.ts
// drives the view and knows nothing of the emulator).
import * as path from 'path';
import { chatViewSuite } from './chatView';
import { EmulatorAdmin } from './emulatorAdmin';
import { workspaceDir } from './env';

/**
 * chatViewSuite against the emulator with its demo key: `admin` is the emulator's (what it was sent), `file(rel)` a
 * path in the workspace (for `prepare`, `cleanup` and the tests).
 */
export function workspaceChatViewSuite(options: { prepare?: () => void; cleanup?: () => void }): {
  readonly admin: EmulatorAdmin;
  readonly file: (rel: string) => string;
  readonly ui: ReturnType<typeof chatViewSuite>;
} {
  const admin = EmulatorAdmin.fromEnv();
  const file = (rel: string) => path.join(workspaceDir(), rel);
  return { admin, file, ui: chatViewSuite({ admin, key: 'mg-demo-key-0001', ...options }) };
}
