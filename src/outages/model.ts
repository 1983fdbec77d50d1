/**
 * Outages: a closure of deposits or withdrawals of a network, from the change that closed it to
 * the one that reopened it, and the availability figures read from them (status page, API, digest).
 */

export type Direction = 'deposit' | 'withdraw';
export const DIRECTIONS: readonly Direction[] = ['deposit', 'withdraw'];

/** One closure of deposits or withdrawals of a network (table `outages`). */
export interface Outage {
  id: number;
  exchange: string;
  coin: string;
  network: string;
  direction: Direction;
  /** When it closed (ms), or null: already closed when watching began. */
  from: number | null;
  /** `from`, or when watching began for an outage from before that: where it counts from. */
  began: number;
  /** When it reopened (ms), or null while it lasts. */
  to: number | null;
  /** The exchange's messages during it, in order, each once. */
  messages: string[];
}

export interface OutageQuery {
  exchange?: string;
  coin?: string;
  network?: string;
  direction?: Direction;
  /** Outages that lasted into this instant or later (ongoing ones always). */
  since?: number;
  /** Only outages that ended, newest end first (default: every outage, newest beginning first). */
  ended?: boolean;
  limit: number;
}

/** One outage of a network, as far as times go (messages are in the table). */
export interface OutageSpan {
  direction: Direction;
  began: number;
  from: number | null;
  to: number | null;
}

/** Closed time and outages of one network and direction within a window (availability). */
export interface OutageTotals {
  exchange: string;
  coin: string;
  network: string;
  direction: Direction;
  /** Milliseconds closed within the window. */
  closedMs: number;
  /** Outages of known length that began within the window. */
  count: number;
  /** Of those, the ones that reopened, and their summed length (ms). */
  reopened: number;
  reopenedMs: number;
}

export interface TotalsQuery {
  exchange?: string;
  coin?: string;
  network?: string;
  start: number;
  now: number;
}
