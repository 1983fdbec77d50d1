/**
 * The one interface every receiver kind implements: `notify/<kind>/index.ts` exports one object
 * checked against it with `satisfies`, and `notify/registry.ts` lists them. The config schema, its
 * checks, redaction, the logger's redact paths, test-notify and routing are derived from that
 * list, so adding a kind is one folder and one line, and nothing outside `notify/` names a kind.
 */
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { Notifier } from './notifier';

/** A silence as the API keeps it, for a receiver that lists or makes them (a receiver folder imports alerts/ only through notify/). */
export type { Silence } from '../alerts/silence';

/** What a receiver's schema may need of the config file it is read from. */
export interface SchemaContext {
  /** Resolves a path written in the config file against the file's own directory. */
  file(path: string): string;
}

/** Opens an SMTP transport (nodemailer's createTransport in production; a test may count or fake them). */
export type MailTransportFactory = (options: SMTPTransport.Options) => Transporter;

/** The edges a notifier is given and never creates, so a test can pass its own. */
export interface ReceiverDeps {
  clock: Clock;
  logger: Logger;
  /** Every receiver that speaks HTTP sends through it; its owner closes it. */
  dispatcher: Dispatcher;
  mailTransport: MailTransportFactory;
  /**
   * The daemon's state_dir, for a receiver that must remember something of its own across
   * restarts (Pushover's emergency receipts); absent where nothing outlives the command (test-notify).
   */
  stateDir?: string | undefined;
}

/**
 * How one key of a receiver's block is shown wherever config is shown (the API, logs):
 * `keep` as it is; `secret` replaced; `url` with its user and password replaced; `header-values`
 * with the names kept and every value replaced.
 */
export type RedactAs<V> = V extends string
  ? 'keep' | 'secret' | 'url'
  : V extends Readonly<Record<string, string>>
    ? 'keep' | 'secret' | 'header-values'
    : 'keep' | 'secret';

/**
 * A decision for every key of a block, optional ones included: a key added to a kind's schema
 * does not compile until someone has said whether it is a secret.
 */
export type Redaction<C> = { readonly [K in keyof C]-?: RedactAs<NonNullable<C[K]>> };

export interface ReceiverPlugin<C extends object> {
  /** The key of the receiver's block in the config file (`- name: x` then `<kind>: {...}`). */
  readonly kind: string;
  /** The block's schema: validates what the file says and fills the defaults. */
  schema(ctx: SchemaContext): z.ZodType<C, z.ZodTypeDef, unknown>;
  /** What a block that leaves a key out gets (named constants, for the schema and the docs). */
  readonly defaults: Partial<C>;
  /** Which keys hold secrets (see Redaction). */
  readonly redact: Redaction<C>;
  create(name: string, config: C, deps: ReceiverDeps): Notifier;
  /**
   * Routing: a receiver that keeps its own state per alert and forgets an alert it stops hearing
   * about (Alertmanager) is told of each alert on its own, at once, and again every this many
   * milliseconds, instead of in groups. Undefined (or absent): grouped by the route.
   */
  resendInterval?(config: C): number | undefined;
}

/**
 * A receiver as configured: its name, whether it wants resolutions, its kind, and its block
 * under the kind's key, as in the file (`{ name, send_resolved, kind: 'webhook', webhook: {...} }`).
 * Only the kind's own plugin reads the block.
 */
export interface ConfiguredReceiver {
  name: string;
  send_resolved: boolean;
  kind: string;
  readonly [block: string]: unknown;
}
