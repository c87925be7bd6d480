// After a balance error (402, or a 403 about quota): the balance is read again (the memory allows one read now), and
// the last figures known are given to the error's card or notification.
import * as vscode from 'vscode';
import { isBalanceError } from '../gateway/advice';
import { describeBalance } from '../gateway/balance';
import type { AccountService } from './services';

export function balanceAfterError(
  services: { account: Pick<AccountService, 'balance' | 'balanceError' | 'peekBalance'> },
  error: unknown,
): string | undefined {
  if (!isBalanceError(error)) return undefined;
  services.account.balanceError();
  void services.account.balance().catch(() => undefined);
  const balance = services.account.peekBalance();
  return balance ? describeBalance(balance, vscode.l10n) : undefined;
}
