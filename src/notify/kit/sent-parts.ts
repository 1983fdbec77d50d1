/**
 * How far each notification sent in several requests got (PagerDuty's event per alert, a
 * Telegram message split in parts), by idempotency key: a retry starts after the parts already
 * accepted. Bounded: beyond `kept` notifications partly sent the oldest is forgotten, and sent
 * whole if it is retried.
 */
export class SentParts {
  private readonly sent = new Map<string, number>();
  private readonly kept: number;

  constructor(kept = 1_000) {
    this.kept = kept;
  }

  /** The first part of `key`'s notification not yet accepted. */
  next(key: string): number {
    return this.sent.get(key) ?? 0;
  }

  /** Every part before `next` was accepted. */
  accepted(key: string, next: number): void {
    this.sent.delete(key); // re-inserted last: the oldest entry is the first to go
    this.sent.set(key, next);
    if (this.sent.size > this.kept) this.sent.delete(this.sent.keys().next().value as string);
  }

  /**
   * Sends `parts` of `key`'s notification in order, from the first not yet accepted (a retry
   * sends only the rest), each recorded as accepted once `send` returns; a throw stops there.
   */
  async sendEach<T>(key: string, parts: readonly T[], send: (part: T, i: number) => Promise<void>): Promise<void> {
    for (let i = this.next(key); i < parts.length; i++) {
      await send(parts[i] as T, i);
      this.accepted(key, i + 1);
    }
    this.done(key);
  }

  /** The whole notification was accepted (or will not be retried). */
  done(key: string): void {
    this.sent.delete(key);
  }
}
