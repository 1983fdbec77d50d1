import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Requires `Authorization: Bearer <token>` (compared in constant time) when a token is set. */
export function bearer(token: string | undefined) {
  const want = token === undefined ? undefined : Buffer.from(token);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (want === undefined) return next();
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const got = m?.[1] !== undefined ? Buffer.from(m[1]) : undefined;
    if (got !== undefined && got.length === want.length && timingSafeEqual(got, want)) return next();
    res.status(401).setHeader('www-authenticate', 'Bearer').json({ status: 'error', error: 'unauthorized' });
  };
}
