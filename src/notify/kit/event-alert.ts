import { fingerprint } from '../../alerts/alert';
import type { NotifiedAlert } from '../notifier';

/**
 * Whether a notified alert is a change event (a change condition: it fires once and never
 * resolves) rather than a condition that holds until it stops. The version 4 body has no field
 * for it, and adding one would change the body every webhook consumer reads; but an event's
 * fingerprint is that of its labels and its time (alerts/lifecycle.ts), which no condition's is.
 * For a receiver that must close what an event opened (PagerDuty's incidents).
 */
export function isChangeEvent(a: NotifiedAlert): boolean {
  const at = Date.parse(a.startsAt);
  return !Number.isNaN(at) && a.fingerprint === fingerprint(a.labels, String(at));
}
