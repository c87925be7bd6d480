// After a balance error (402, or a 403 about quota): the balance is read again (the memory allows one read now), and
// the card or notification gets the sentence balanceNoteAfterRefusal says (never a stale figure that contradicts it).
import * as vscode from 'vscode';
import { isBalanceError } from '../gateway/errors/advice';
import { balanceNoteAfterRefusal } from '../gateway/balance';
import type { AccountService } from './services';

export function balanceAfterError(
  services: { account: Pick<AccountService, 'balance' | 'balanceError' | 'peekBalance'> },
  error: unknown,
): string | undefined {
  if (!isBalanceError(error)) return undefined;
  services.account.balanceError();
  void services.account.balance().catch(() => undefined);
  return balanceNoteAfterRefusal(services.account.peekBalance(), vscode.l10n);
}
