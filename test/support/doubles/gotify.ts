/**
 * Gotify's push endpoint, as its public docs describe it (gotify.net/docs/pushmsg, /docs/msgextras,
 * the REST API's swagger "createMessage" and its Error model). Written from the docs, not from
 * spotwatch's code.
 *
 * - `POST /message` (under the path the server is published at). The application token in the
 *   `X-Gotify-Key` header, or the `token` query parameter, or `Authorization: Bearer`. No token,
 *   an unknown one, or a client's token (not an application's): 401 (gotify/server 2.x, whose
 *   auth middleware takes only an application token there; 3.x answers a client's token 400
 *   `appid is required when not authenticating with an application token`).
 * - A JSON body `MessageExternal`: `message` (required, non-empty), `title`, `priority` (an
 *   integer), `extras` (namespaced `a::b` keys, e.g. `client::display.contentType` text/plain or
 *   text/markdown, `client::notification.click.url`). Otherwise 400.
 * - 200 with the stored message (`id`, `appid`, `message`, `title`, `priority`, `extras`, `date`).
 * - Errors are `{"error", "errorCode", "errorDescription"}`.
 * - No size limit is documented, and no rate limit (a proxy in front may add one: `forced`).
 */
import { ServiceDouble, type ServiceReply, type ServiceRequest } from './service';

export const GOTIFY_APP_TOKEN = 'AgHm3pRkq9.ZpT2';
export const GOTIFY_CLIENT_TOKEN = 'CnV8w2LmQx_4Yb1';

export interface GotifyPost {
  title?: string;
  message?: string;
  priority?: number;
  extras?: Record<string, Record<string, unknown>>;
}

export interface GotifyStored extends GotifyPost {
  /** How the token came: which of header, query or bearer. */
  via: 'header' | 'query' | 'bearer';
}

export class GotifyDouble extends ServiceDouble {
  /** Messages Gotify stored and pushed to the clients. */
  readonly messages: GotifyStored[] = [];
  /** The path the server is published under ('' at the root, '/gotify' behind a proxy's prefix). */
  prefix = '';

  protected answer(req: ServiceRequest): ServiceReply {
    const url = new URL(req.path, 'http://gotify.invalid');
    if (url.pathname !== `${this.prefix}/message`) return error(404, 'Not Found', 'page not found');
    if (req.method !== 'POST') return error(405, 'Method Not Allowed', 'method not allowed');
    const header = req.headers['x-gotify-key'];
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const query = url.searchParams.get('token');
    const token = typeof header === 'string' ? header : bearer ?? query;
    const via = typeof header === 'string' ? 'header' : bearer !== undefined ? 'bearer' : 'query';
    if (token !== GOTIFY_APP_TOKEN) return error(401, 'Unauthorized', 'you need to provide a valid access token or user credentials to access this api');
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '') || typeof req.json !== 'object' || req.json === null) {
      return error(400, 'Bad Request', 'invalid character in JSON body');
    }
    const body = req.json as GotifyPost;
    if (typeof body.message !== 'string' || body.message === '') return error(400, 'Bad Request', "Field 'message' is required");
    if (body.priority !== undefined && !Number.isInteger(body.priority)) return error(400, 'Bad Request', "Field 'priority' must be an integer");
    const badExtra = Object.keys(body.extras ?? {}).find((k) => !/^[^:]+::[^:]+(::[^:]+)?$/.test(k));
    if (badExtra !== undefined) return error(400, 'Bad Request', `invalid extras namespace ${badExtra}`);
    this.messages.push({ ...body, via });
    return { status: 200, body: { id: this.messages.length, appid: 1, message: body.message, title: body.title ?? 'spotwatch', priority: body.priority ?? 0, extras: body.extras, date: '2026-01-02T03:04:05Z' } };
  }
}

function error(status: number, text: string, description: string): ServiceReply {
  return { status, body: { error: text, errorCode: status, errorDescription: description } };
}

/** Markdown's backslash escapes undone (CommonMark: a backslash before ASCII punctuation is that character, literally). */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~])/g, '$1');
}

/** The ASCII punctuation a markdown renderer would act on: any not escaped with a backslash. */
export function unescapedPunctuation(text: string): string[] {
  return [...text.replace(/\\[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')].filter((c) => /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/.test(c));
}
