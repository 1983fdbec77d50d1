/** A notice book as JSON (notices/book.ts): the store keeps one row per exchange, a recording's state one per segment. */
import { z } from 'zod';
import { windowKey, type NoticeBook } from './book';
import { ANNOUNCEMENT_KINDS, MAINTENANCE_STATES, ORIGINS, SCOPES, STATUS_STATES, type Announcement, type ExchangeStatus, type Maintenance, type NoticeRead } from './model';


const time = z.number().int();
const windowSchema = z.object({
  exchange: z.string(), id: z.string(), title: z.string(), state: z.enum(MAINTENANCE_STATES), begins: time, ends: time.nullable(),
  origin: z.enum(ORIGINS), scope: z.enum(SCOPES), coins: z.array(z.string()), symbols: z.array(z.string()), url: z.string().nullable(), source: z.string(),
});
const announcementSchema = z.object({
  exchange: z.string(), id: z.string(), kind: z.enum(ANNOUNCEMENT_KINDS), title: z.string(), url: z.string().nullable(), published: time,
  coins: z.array(z.string()), symbols: z.array(z.string()), chains: z.array(z.string()), source: z.string(),
});

/** A book as JSON: its maps as lists. */
export const NOTICE_BOOK_JSON: z.ZodType<NoticeBookJson> = z.object({
  status: z.object({ exchange: z.string(), state: z.enum(STATUS_STATES), message: z.string().nullable(), since: time, checked: time }).nullable(),
  windows: z.array(windowSchema),
  announcements: z.array(announcementSchema),
  baselined: z.array(z.string()),
  unsettled: z.array(z.string()).optional(),
});
export interface NoticeBookJson {
  readonly status: ExchangeStatus | null;
  readonly windows: readonly Maintenance[];
  readonly announcements: readonly Announcement[];
  readonly baselined: readonly string[];
  /** Written only when there are some (and absent in what was stored before it was kept): none. */
  readonly unsettled?: readonly string[];
}

export function bookToJson(book: NoticeBook): NoticeBookJson {
  return { ...bookLists(book), baselined: [...book.baselined], ...(book.unsettled.size > 0 && { unsettled: [...book.unsettled] }) };
}

/** What the main thread holds of a book (runtime/read-model.ts): its lists, without the sources' baselines. */
export type NoticeLists = Omit<NoticeBookJson, 'baselined' | 'unsettled'>;

export function bookLists(book: NoticeBook): NoticeLists {
  return { status: book.status ?? null, windows: [...book.windows.values()], announcements: [...book.announcements.values()] };
}

export function bookFromJson(json: NoticeBookJson): NoticeBook {
  return { status: json.status ?? undefined, windows: new Map(json.windows.map((w) => [windowKey(w), w])), announcements: new Map(json.announcements.map((a) => [a.id, a])), baselined: new Set(json.baselined), unsettled: new Set(json.unsettled ?? []) };
}

/** One source's read as a recording keeps it (notices/model.ts NoticeRead). */
export const NOTICE_READ_JSON: z.ZodType<NoticeRead> = z.object({
  status: z.object({ state: z.enum(STATUS_STATES), message: z.string().nullable(), since: time.nullable() }).optional(),
  maintenance: z.array(windowSchema.omit({ exchange: true }).extend({ named: z.array(z.string()).optional() })).optional(),
  announcements: z.array(announcementSchema.omit({ exchange: true, coins: true, symbols: true, chains: true })).optional(),
  unsettled: z.array(z.string()).optional(),
});
