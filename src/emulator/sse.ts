// Server-sent events in the upstream Messages format, with the stream faults (drop, error event, no event lines).

import { writeOut, type Ctx } from './http';

/**
 * How a stream is paced at tokensPerSecond (the fault's, else the config's): `perDelta` tokens a delta event and a
 * `pause` of ms between such events (0 and 8: unpaced).
 */
export function pacing(ctx: Ctx): { perDelta: number; pause: number } {
  const tps = ctx.faults.tokensPerSecond ?? ctx.state.config.messages.tokensPerSecond;
  const perDelta = tps > 0 ? Math.min(20, Math.max(1, Math.round(tps / 50))) : 8;
  return { perDelta, pause: tps > 0 ? (perDelta / tps) * 1000 : 0 };
}

export class SseWriter {
  private sent = 0;
  /** Set once the stream must not be written any more (client gone, fault ended it). */
  done = false;

  /**
   * `chat`: chat-completions chunks (bare `data:` lines, `data: [DONE]` at the end, OpenAI-shaped error chunks).
   * `responses`: Responses events (an `error` event of that API's shape).
   */
  constructor(
    private readonly ctx: Ctx,
    private readonly options: { chat?: boolean; responses?: boolean } = {},
  ) {
    ctx.entry.status = 200;
    ctx.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    ctx.res.flushHeaders();
    ctx.res.on('close', () => {
      this.done = true;
    });
    for (const frame of ctx.dialect?.sse.leadingFrames ?? []) writeOut(ctx, frame);
  }

  /** Sends one event; returns false when the stream is over (the caller stops generating). */
  send(event: string, data: Record<string, unknown>): boolean {
    if (this.done || this.ctx.res.destroyed) return false;
    if (this.ctx.dialect?.sse.omitEvents?.has(event)) return true;
    const f = this.ctx.faults;
    if (f.dropAfterEvents !== undefined && this.sent >= f.dropAfterEvents) {
      if (this.options.chat && this.ctx.dialect?.sse.doneAfterCut) {
        // one-api writes [DONE] even when its upstream read failed: a clean end without a finish_reason.
        this.ctx.serverDropped = true;
        this.finishChat();
        return false;
      }
      this.done = true;
      this.ctx.serverDropped = true;
      this.ctx.res.socket?.destroy();
      return false;
    }
    if (f.errorAfterEvents !== undefined && this.sent >= f.errorAfterEvents) {
      const type = f.errorType ?? 'overloaded_error';
      const message = `Emulated ${type} mid-stream.`;
      const frame = this.options.chat
        ? `data: ${JSON.stringify({ error: { message, type, code: type } })}\n\ndata: [DONE]\n\n`
        : this.options.responses
          ? `event: error\ndata: ${JSON.stringify({ type: 'error', code: type, message, param: null, sequence_number: this.sent })}\n\n`
          : this.ctx.dialect?.sse.errorFrame?.(type, message, this.ctx.requestId);
      if (frame !== undefined) writeOut(this.ctx, frame);
      else this.write('error', { type: 'error', error: { type, message }, request_id: this.ctx.requestId });
      this.end();
      return false;
    }
    this.write(event, data);
    return true;
  }

  private write(event: string, data: Record<string, unknown>): void {
    const habits = this.ctx.dialect?.sse ?? {};
    const bare =
      this.options.chat ||
      (this.ctx.faults.noEventLines && (event === 'ping' || event === 'error')) ||
      habits.bareEvents === 'all' ||
      (habits.bareEvents instanceof Set && habits.bareEvents.has(event));
    let frame = `${bare ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
    // Comment keep-alives are not events: they never count towards the drop/error faults.
    if (habits.commentPing && (this.sent + 1) % habits.commentPing.every === 0)
      frame += `${habits.commentPing.text}\n\n`;
    writeOut(this.ctx, frame);
    this.sent++;
    this.ctx.entry.events = this.sent;
  }

  /** Ends a chat-completions stream the way every gateway does: `data: [DONE]`. */
  finishChat(): void {
    if (this.done) return;
    writeOut(this.ctx, 'data: [DONE]\n\n');
    this.end();
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.ctx.res.end();
  }
}
