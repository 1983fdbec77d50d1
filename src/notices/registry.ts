/**
 * Which notice sources an exchange reads (notices.md section 1): by its dialect's name, the
 * unofficial Binance list only when asked for, and a Statuspage for any exchange that names one.
 * gate, mexc and spot-v3 have none of their own.
 */
import type { NoticeSource } from './source';
import { binanceAnnouncements, binanceStatus, BINANCE_SITE } from './sources/binance';
import { bitgetAnnouncements } from './sources/bitget';
import { bybitAnnouncements, bybitStatus } from './sources/bybit';
import { htxStatus } from './sources/htx';
import { kucoinAnnouncements, kucoinStatus } from './sources/kucoin';
import { okxAnnouncements, okxStatus } from './sources/okx';
import { statuspage } from './sources/statuspage';

export interface NoticeOptions {
  /** Read Binance's undocumented announcement list. */
  readonly unofficial: boolean;
  /** An Atlassian Statuspage's URL (its own base). */
  readonly statuspage?: string | undefined;
  /** The config sets the exchange's base_url (a double or proxy): the unofficial list is read there too. */
  readonly baseUrlSet: boolean;
}

/** The sources of an exchange of dialect `dialect`. */
export function noticeSources(dialect: string, options: NoticeOptions): NoticeSource[] {
  const own = dialectSources(dialect, options);
  return options.statuspage === undefined ? own : [...own, statuspage(options.statuspage)];
}

function dialectSources(dialect: string, { unofficial, baseUrlSet }: NoticeOptions): NoticeSource[] {
  switch (dialect) {
    case 'okx':
      return [okxStatus, okxAnnouncements];
    case 'bybit':
      return [bybitStatus, bybitAnnouncements];
    case 'kucoin':
      return [kucoinStatus, kucoinAnnouncements];
    case 'binance':
      return unofficial ? [binanceStatus, binanceAnnouncements(baseUrlSet ? undefined : BINANCE_SITE)] : [binanceStatus];
    case 'htx':
      return [htxStatus];
    case 'bitget':
      return [bitgetAnnouncements];
    default:
      // gate (announcements over WebSocket only), mexc and spot-v3 publish none we can read.
      return [];
  }
}
