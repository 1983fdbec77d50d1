import { receiverRegistry } from '../../src/notify/registry';
import { capturedLogger } from '../support/log-capture';

describe('the receiver registry', () => {
  it('lists the kinds in the order the config names them', () => {
    expect(receiverRegistry.kinds).toEqual(['webhook', 'email', 'alertmanager', 'log', 'telegram', 'slack', 'discord', 'pagerduty', 'teams', 'matrix', 'ntfy', 'gotify', 'pushover']);
  });

  it('uses a log receiver named "log" when the config lists none', () => {
    expect(receiverRegistry.fallback).toStrictEqual({ name: 'log', send_resolved: true, kind: 'log', log: {} });
  });

  it('derives the logger\'s redact paths from what each kind declares secret', () => {
    expect(receiverRegistry.logRedactPaths()).toEqual([
      'webhook.url', '*.webhook.url',
      'webhook.secret', '*.webhook.secret', 'secret', '*.secret',
      'webhook.headers', '*.webhook.headers',
      'email.smtp_url', '*.email.smtp_url',
      'email.password', '*.email.password', 'password', '*.password',
      'alertmanager.url', '*.alertmanager.url',
      'telegram.bot_token', '*.telegram.bot_token', 'bot_token', '*.bot_token',
      'telegram.api_url', '*.telegram.api_url',
      'slack.webhook_url', '*.slack.webhook_url', 'webhook_url', '*.webhook_url',
      'discord.webhook_url', '*.discord.webhook_url',
      'pagerduty.routing_key', '*.pagerduty.routing_key', 'routing_key', '*.routing_key',
      'pagerduty.url', '*.pagerduty.url',
      'teams.webhook_url', '*.teams.webhook_url',
      'matrix.homeserver', '*.matrix.homeserver',
      'matrix.access_token', '*.matrix.access_token', 'access_token', '*.access_token',
      'ntfy.url', '*.ntfy.url',
      'ntfy.topic', '*.ntfy.topic', 'topic', '*.topic',
      'ntfy.token', '*.ntfy.token', 'token', '*.token',
      'ntfy.password', '*.ntfy.password',
      'gotify.url', '*.gotify.url',
      'gotify.token', '*.gotify.token',
      'pushover.token', '*.pushover.token',
      'pushover.user', '*.pushover.user', 'user', '*.user',
      'pushover.api_url', '*.pushover.api_url',
    ]);
  });

  it('keeps a logged receiver block\'s secrets out of the log line, and other URLs in', () => {
    const { logger, lines } = capturedLogger('info', { redact: receiverRegistry.logRedactPaths() });
    logger.info({ receiver: { name: 'mail', kind: 'email', email: { smtp_url: 'smtp://u:pa55@h:587', from: 'a@b.org' } }, url: 'http://127.0.0.1:9464' }, 'x');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ receiver: { email: { smtp_url: '[redacted]', from: 'a@b.org' } }, url: 'http://127.0.0.1:9464' });
  });

  it('refuses a kind registered twice, and a kind named like a key every receiver has', () => {
    const [webhook] = receiverRegistry.plugins;
    if (webhook === undefined) throw new Error('no webhook plugin');
    expect(() => receiverRegistry.with(webhook)).toThrow('receiver kind "webhook" is registered twice');
    expect(() => receiverRegistry.with({ ...webhook, kind: 'name' })).toThrow('"name" cannot be a receiver kind: it is a key of every receiver');
  });

  it('says which receiver asks for a kind it does not know', () => {
    expect(() => receiverRegistry.resendInterval({ name: 'x', send_resolved: true, kind: 'pager', pager: {} })).toThrow('receiver "x": no receiver kind "pager" is registered');
  });
});
