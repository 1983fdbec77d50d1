/**
 * Request weight per client IP over a sliding window (DESIGN.md section 5). A request that would
 * exceed the budget is refused (429) and adds no weight; a client that keeps asking while
 * refused is banned (418) for a while.
 */
export interface WeightLimit {
  max: number;
  windowMs: number;
  /** Requests refused in a row before a ban. */
  banAfter: number;
  banMs: number;
}

export type WeightDecision =
  | { kind: 'ok'; used: number }
  | { kind: 'limited'; used: number; retryAfterMs: number }
  | { kind: 'banned'; used: number; retryAfterMs: number; until: number };

export interface WeightLimiter {
  readonly limit: WeightLimit;
  take(ip: string, weight: number, now: number): WeightDecision;
  reset(): void;
}

interface Client {
  /** Times and weights of accepted requests, oldest first. */
  times: number[];
  weights: number[];
  used: number;
  refusedInRow: number;
  bannedUntil: number;
}

/** Forget idle clients now and then, so a scan from many addresses does not grow memory for good. */
const SWEEP_EVERY = 10_000;

export function createWeightLimiter(limit: WeightLimit): WeightLimiter {
  let clients = new Map<string, Client>();
  let sinceSweep = 0;

  const expire = (c: Client, now: number): void => {
    let drop = 0;
    while (drop < c.times.length && (c.times[drop] as number) <= now - limit.windowMs) {
      c.used -= c.weights[drop] as number;
      drop++;
    }
    if (drop > 0) {
      c.times.splice(0, drop);
      c.weights.splice(0, drop);
    }
  };

  const sweep = (now: number): void => {
    for (const [ip, c] of clients) {
      expire(c, now);
      if (c.times.length === 0 && c.bannedUntil <= now && c.refusedInRow === 0) clients.delete(ip);
    }
  };

  /** When enough old weight has left the window for `weight` more to fit. */
  const freeAt = (c: Client, weight: number): number => {
    let used = c.used;
    for (let i = 0; i < c.times.length; i++) {
      used -= c.weights[i] as number;
      if (used + weight <= limit.max) return (c.times[i] as number) + limit.windowMs;
    }
    return Number.POSITIVE_INFINITY;
  };

  return {
    limit,
    take: (ip, weight, now) => {
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        sweep(now);
      }
      let c = clients.get(ip);
      if (c === undefined) {
        c = { times: [], weights: [], used: 0, refusedInRow: 0, bannedUntil: 0 };
        clients.set(ip, c);
      }
      expire(c, now);
      if (c.bannedUntil > now) return { kind: 'banned', used: c.used, retryAfterMs: c.bannedUntil - now, until: c.bannedUntil };
      if (c.used + weight <= limit.max) {
        c.times.push(now);
        c.weights.push(weight);
        c.used += weight;
        c.refusedInRow = 0;
        return { kind: 'ok', used: c.used };
      }
      c.refusedInRow += 1;
      if (c.refusedInRow > limit.banAfter) {
        c.refusedInRow = 0;
        c.bannedUntil = now + limit.banMs;
        return { kind: 'banned', used: c.used, retryAfterMs: limit.banMs, until: c.bannedUntil };
      }
      // A request heavier than the whole budget never fits: tell the client to wait a full window.
      const at = weight > limit.max ? now + limit.windowMs : freeAt(c, weight);
      return { kind: 'limited', used: c.used, retryAfterMs: at - now };
    },
    reset: () => {
      clients = new Map();
    },
  };
}
