/**
 * Outages: a closure of deposits or withdrawals of a network, from the change that closed it to
 * the one that reopened it, and the availability figures read from them (status page, API, digest).
 */

export type Direction = 'deposit' | 'withdraw';
export const DIRECTIONS: readonly Direction[] = ['deposit', 'withdraw'];

/** The changes that begin an outage of a direction (the network closed it). */
export const OUTAGE_CLOSES: Readonly<Partial<Record<string, Direction>>> = { deposit_disabled: 'deposit', withdraw_disabled: 'withdraw' };
/** The changes that end one (the network reopened it). */
export const OUTAGE_OPENS: Readonly<Partial<Record<string, Direction>>> = { deposit_enabled: 'deposit', withdraw_enabled: 'withdraw' };
/** The exchange's messages that join an outage of their direction while it lasts. */
export const OUTAGE_MESSAGES: Readonly<Partial<Record<string, Direction>>> = {
  deposit_desc_set: 'deposit', deposit_desc_changed: 'deposit', withdraw_desc_set: 'withdraw', withdraw_desc_changed: 'withdraw',
};
/** The changes that end every outage of what they remove, where watching it ended (gone, not reopened). */
export const OUTAGE_ENDS: readonly string[] = ['coin_delisted', 'network_removed'];
/** Every change kind an outage follows. */
export const OUTAGE_KINDS: readonly string[] = [...Object.keys(OUTAGE_CLOSES), ...Object.keys(OUTAGE_OPENS), ...Object.keys(OUTAGE_MESSAGES), ...OUTAGE_ENDS];

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
