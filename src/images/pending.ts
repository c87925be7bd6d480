// Activation's cheap question to the images feature (no need to load its bundle to ask it).
import type * as vscode from 'vscode';
import { TaskTracker } from './tracker';

/** Does globalState hold a task that resuming (tasksCommand.ts resumeOnActivation) would act on? */
export function hasTasksToResume(state: vscode.Memento): boolean {
  return new TaskTracker(state)
    .list()
    .some((r) => r.state === 'submitting' || r.state === 'pending' || r.state === 'saving');
}
