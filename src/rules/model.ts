import type { AnnouncementKind, StatusState } from '../notices/model';
import type { ChangeKind } from '../snapshot/changes';

/** State conditions on networks (per coin and network) or coins (per coin). */
export const NETWORK_STATES = ['deposit_disabled', 'withdraw_disabled', 'deposit_desc_present', 'withdraw_desc_present'] as const;
const COIN_STATES = ['deposit_all_disabled', 'withdraw_all_disabled'] as const;
export const STATES = [...NETWORK_STATES, ...COIN_STATES] as const;
export type StateKind = (typeof STATES)[number];

export const TICKER_MEASURES = [
  'change_24h_percent', 'move_percent', 'spread_bps', 'last_price', 'volume', 'quote_volume', 'stale_for', 'missing',
] as const;
export type TickerMeasure = (typeof TICKER_MEASURES)[number];

export type Condition =
  /** `unannounced`: holds only while no notice explains the closure (notices.md section 3). */
  | { type: 'state'; state: StateKind; unannounced?: boolean }
  /** A maintenance window in this state (notices.md section 4); `withinMs`: scheduled ones that begin within it. */
  | { type: 'maintenance'; state: 'scheduled' | 'ongoing'; withinMs: number | undefined }
  /** The exchange's status in one of these states. */
  | { type: 'exchange_status'; states: StatusState[] }
  /** An event per announcement of these kinds read after the baseline. */
  | { type: 'announcement'; kinds: AnnouncementKind[] }
  | { type: 'change'; kinds: ChangeKind[] }
  | {
      type: 'ticker';
      measure: TickerMeasure;
      /** For move_percent: how far back the move is measured. */
      windowMs: number | undefined;
      /** Fires when the measure is above this (for stale_for: seconds). */
      above: number | undefined;
      below: number | undefined;
      /** Resolves only once back inside the threshold by this margin. */
      hysteresis: number;
    }
  /**
   * A route across two exchanges (rules/transfer.ts): holds while no chain has withdrawals of
   * `coin` open at `from` and deposits open at `to`. Judged whenever either exchange's coins change.
   */
  | { type: 'transfer'; coin: string; from: string; to: string; chains: string[] | undefined }
  /** Alerts spotwatch raises about the exchange itself (UpstreamAnomaly, ExchangeDown). */
  | { type: 'builtin' };

/** A compiled label matcher: label name and a test on its value. */
export interface Matcher {
  label: string;
  pattern: string;
  test(value: string | undefined): boolean;
}

export interface Rule {
  /** Stable identity of the rule's definition (survives restarts and reordering). */
  id: string;
  alert: string;
  match: Matcher[];
  severity: string;
  forMs: number;
  keepFiringForMs: number;
  repeatIntervalMs: number | undefined;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  condition: Condition;
}

/** Whether a ticker measure reads the watcher's samples and the time (move_percent, stale_for), not the ticker alone. */
export function measuresOverTime(measure: TickerMeasure): boolean {
  return measure === 'move_percent' || measure === 'stale_for';
}
