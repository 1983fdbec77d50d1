/**
 * The faults in force. The newest fault matching an endpoint answers for it; a fault ends
 * after its `for` (on the injected clock), after `count` requests, or when cleared.
 */
import type { Clock } from '../../lib/clock';
import type { Endpoint } from '../../exchange/dialects/spot-v3/wire';
import type { FaultEndpoint, FaultSpec } from '../actions/faults-schema';

export interface ActiveFault {
  id: number;
  spec: FaultSpec;
  addedAt: number;
  expiresAt: number | null;
  remaining: number | null;
}

export interface FaultBoard {
  /** A fault that starts at `now` (its `for` runs from then). */
  add(spec: FaultSpec, now: number): number;
  /** `coins` / `tickers`: remove the faults added for that endpoint; `all` or nothing: remove every fault. */
  clear(endpoint?: FaultEndpoint): number;
  /** The fault that answers this request, counting it; undefined when the endpoint behaves. */
  take(endpoint: Endpoint): FaultSpec | undefined;
  list(): readonly ActiveFault[];
}

export function createFaultBoard(clock: Clock): FaultBoard {
  let faults: ActiveFault[] = [];
  let nextId = 1;
  const prune = (): void => {
    const now = clock.now();
    faults = faults.filter((f) => (f.expiresAt === null || now < f.expiresAt) && f.remaining !== 0);
  };
  return {
    add: (spec, now) => {
      const id = nextId++;
      faults.push({
        id, spec, addedAt: now,
        expiresAt: spec.for === undefined ? null : now + spec.for,
        remaining: spec.count ?? null,
      });
      return id;
    },
    clear: (endpoint) => {
      const before = faults.length;
      faults = endpoint === undefined || endpoint === 'all' ? [] : faults.filter((f) => f.spec.endpoint !== endpoint);
      return before - faults.length;
    },
    take: (endpoint) => {
      prune();
      for (let i = faults.length - 1; i >= 0; i--) {
        const f = faults[i] as ActiveFault;
        if (f.spec.endpoint !== endpoint && f.spec.endpoint !== 'all') continue;
        if (f.remaining !== null) f.remaining -= 1;
        return f.spec;
      }
      return undefined;
    },
    list: () => {
      prune();
      return faults;
    },
  };
}
