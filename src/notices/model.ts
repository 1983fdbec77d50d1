/**
 * Notices: what an exchange says before and while it closes (../shared/notices.md, contract).
 * Three kinds, one model; times are ms since the epoch here (RFC 3339 in the API). Every list
 * may be empty; a text the source sends as `""` is null.
 */

export const STATUS_STATES = ['normal', 'maintenance', 'cancel_only', 'post_only'] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/** The exchange as a whole, now. */
export interface ExchangeStatus {
  readonly exchange: string;
  readonly state: StatusState;
  readonly message: string | null;
  /** The source's start time of this state, else when it was first seen. */
  readonly since: number;
  /** The last successful read. */
  readonly checked: number;
}

export const MAINTENANCE_STATES = ['scheduled', 'ongoing', 'completed', 'canceled'] as const;
export type MaintenanceState = (typeof MAINTENANCE_STATES)[number];
export const ORIGINS = ['planned', 'unplanned', 'incident', 'unknown'] as const;
export type Origin = (typeof ORIGINS)[number];
export const SCOPES = ['exchange', 'trading', 'funding', 'api', 'other', 'unknown'] as const;
export type Scope = (typeof SCOPES)[number];

/** A maintenance window, planned or not. */
export interface Maintenance {
  readonly exchange: string;
  /** The source's id (OKX has none: a stable hash of title, serviceType and env). */
  readonly id: string;
  readonly title: string;
  readonly state: MaintenanceState;
  readonly begins: number;
  /** Null when unknown. */
  readonly ends: number | null;
  readonly origin: Origin;
  readonly scope: Scope;
  readonly coins: readonly string[];
  readonly symbols: readonly string[];
  readonly url: string | null;
  /** The source it came from (a dialect's source name, or `statuspage`). */
  readonly source: string;
}

export const ANNOUNCEMENT_KINDS = ['listing', 'delisting', 'maintenance', 'other'] as const;
export type AnnouncementKind = (typeof ANNOUNCEMENT_KINDS)[number];

/** A published notice. */
export interface Announcement {
  readonly exchange: string;
  /** KuCoin and Bitget `annId`, Binance `code`, else the url. */
  readonly id: string;
  readonly kind: AnnouncementKind;
  readonly title: string;
  readonly url: string | null;
  readonly published: number;
  readonly coins: readonly string[];
  readonly symbols: readonly string[];
  readonly chains: readonly string[];
  readonly source: string;
}

/** A window as a source reads it: `named`, texts beside its title that name what it covers (a Statuspage's affected components). */
export type WindowRead = Omit<Maintenance, 'exchange'> & { readonly named?: readonly string[] };

/**
 * What one read of one notice source said, decoded (before mentions are matched against the
 * exchange's lists). A part left undefined was not read by this source; an empty list was read
 * and is empty. Maintenance windows carry only what the source says: a window that leaves the
 * list is judged by the notices step (completed after its end, canceled before its begin).
 */
export interface NoticeRead {
  /** `since`: the source's start time of the state, null when it sends none. */
  readonly status?: { readonly state: StatusState; readonly message: string | null; readonly since: number | null };
  readonly maintenance?: readonly WindowRead[];
  readonly announcements?: readonly Omit<Announcement, 'exchange' | 'coins' | 'symbols' | 'chains'>[];
  /**
   * Ids of known windows that left the source's list and that its follow-up could not tell
   * about (the follow-up failed): judged by their times for now, and asked about again at the
   * next read (OKX).
   */
  readonly unsettled?: readonly string[];
}
