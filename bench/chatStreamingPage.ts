// What the chat-view streaming figures (webview.ts: plain Ask streaming; agentView.ts: an agent turn with
// tool cards) share, so that both stream the same answer and count frames the same way.

/**
 * In-page script (a string: functions passed through tsx would carry its helpers along). Defines
 * window.__countFrames(started, seconds): counts requestAnimationFrame callbacks from `started` for `seconds`;
 * its result() gives frames per second, the worst gap between frames and the gaps over 25 ms.
 */
export const FRAME_COUNTER_SCRIPT = `
window.__countFrames = (started, seconds) => {
  let frames = 0, last = started, worst = 0, long = 0;
  const frame = (t) => {
    frames++; worst = Math.max(worst, t - last); if (t - last > 25) long++; last = t;
    if (t - started < seconds * 1000) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return { result: () => ({ fps: frames / ((last - started) / 1000), worst, long }) };
};
`;

/** Words of a streamed answer: markdown, a code block now and then. */
export function streamedAnswerWords(): string[] {
  const words: string[] = [];
  for (let i = 0; i < 400; i++) {
    words.push(
      i % 60 === 59
        ? '\n\n```js\nconst x = 1;\nconsole.log(x);\n```\n\n'
        : i % 20 === 19
          ? '.\n\n'
          : i % 7 === 0
            ? ' **bold**'
            : ` word${i % 13}`,
    );
  }
  return words;
}
