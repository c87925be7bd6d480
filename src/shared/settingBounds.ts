// The numeric settings' bounds, as package.json declares them (test/unit/shared/settingBounds.test.ts checks the two
// agree). A value outside them is clamped to the nearest bound, never replaced by the default (a maxSteps of 1000
// means "many": 200, the most there is), and the user is told once.

export const SETTING_BOUNDS = {
  'chat.maxTokens': { min: 1, max: 1_000_000 },
  'images.taskTimeoutMinutes': { min: 1, max: 1440 },
  requestTimeoutSeconds: { min: 5, max: 3600 },
  'models.cacheMinutes': { min: 0, max: 10_080 },
  'agent.maxSteps': { min: 1, max: 200 },
  'agent.commandTimeoutSeconds': { min: 5, max: 7200 },
  'agent.condenseThreshold': { min: 0.1, max: 0.95 },
  'agent.maxParallelSubagents': { min: 1, max: 8 },
} as const;

export type BoundedSetting = keyof typeof SETTING_BOUNDS;

/** A setting outside its bounds: what was set and what is used instead. */
export interface ClampedSetting {
  /** The key under modelGateway. */
  key: BoundedSetting;
  value: number;
  used: number;
  min: number;
  max: number;
}

/** `value` within the bounds of `key` (whole numbers rounded down when `integer`), and what was clamped, if anything. */
export function clampSetting(
  key: BoundedSetting,
  value: number,
  integer: boolean,
): { used: number; clamped?: ClampedSetting } {
  const { min, max } = SETTING_BOUNDS[key];
  const whole = integer ? Math.floor(value) : value;
  const used = Math.min(max, Math.max(min, whole));
  return used === whole ? { used } : { used, clamped: { key, value, used, min, max } };
}

/** Remembers which clamped values were said, so each is said once (per window), not at every read. */
export class OnceNotices {
  private readonly said = new Set<string>();

  /** The entries not said yet (and from now on said). */
  fresh(list: readonly ClampedSetting[]): ClampedSetting[] {
    return list.filter((c) => {
      const id = `${c.key}=${c.value}`;
      if (this.said.has(id)) return false;
      this.said.add(id);
      return true;
    });
  }
}
