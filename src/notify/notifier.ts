/**
 * The one interface every receiver implements, and the one data model every receiver and
 * template sees: the fields of Alertmanager's webhook body, version 4. Anything that
 * consumes Alertmanager webhooks consumes spotwatch's unchanged.
 */

export interface NotifiedAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** RFC 3339. */
  startsAt: string;
  /** RFC 3339; `0001-01-01T00:00:00Z` while firing, as Alertmanager sends it. */
  endsAt: string;
  generatorURL: string;
  fingerprint: string;
}

export interface Notification {
  version: '4';
  groupKey: string;
  truncatedAlerts: number;
  status: 'firing' | 'resolved';
  receiver: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string;
  alerts: NotifiedAlert[];
}

/**
 * One notification for one receiver, as the outbox holds it and a notifier sends it: the body,
 * and a key that stays the same across retries. (The daemon's notification subsystem is
 * `Notifications`, notify/orchestrator.ts.)
 */
export interface Delivery {
  notification: Notification;
  /** Stable across retries and restarts: receivers pass it on so the far end can drop duplicates. */
  idempotencyKey: string;
}

/** Why a send failed: the `reason` label of spotwatch_notifications_failed_total (DESIGN.md section 4: a contract). */
export const FAILURE_REASONS = ['client_error', 'server_error', 'rate_limited', 'timeout', 'connect', 'other'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** A failed send. `retryable` says whether another attempt may succeed (the retry stage owns backoff). */
export class NotifyError extends Error {
  override readonly name = 'NotifyError';

  constructor(
    message: string,
    readonly reason: FailureReason,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface Notifier {
  readonly name: string;
  /**
   * Delivers or throws a NotifyError. `notificationJson`, when given, is
   * JSON.stringify(delivery.notification), already made (the outbox keeps it from the commit).
   */
  send(delivery: Delivery, signal?: AbortSignal, notificationJson?: string): Promise<void>;
  /** Releases what the notifier opened itself (an SMTP transport); what it was given stays open. */
  close?(): Promise<void>;
}

/** Alertmanager's "zero time", used for endsAt of an alert that has not ended. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';
