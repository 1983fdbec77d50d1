import type { Request, Response, Router } from 'express';

/** What express 5's routers hold: each route's path (or paths) and the methods it answers. */
interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** `GET, HEAD, POST`: the methods of a path, in the order of an Allow header (HEAD with GET, as express answers it). */
function allowOf(methods: ReadonlySet<string>): string {
  const out = new Set<string>();
  for (const m of methods) {
    out.add(m.toUpperCase());
    if (m === 'get') out.add('HEAD');
  }
  out.add('OPTIONS');
  return [...out].join(', ');
}

/**
 * Answers a request to a path the router knows, with a method it does not take: 405 with an
 * `Allow` header listing the path's methods (RFC 9110 section 15.5.6), and OPTIONS with 204 and
 * the same header, instead of the 404 of an unknown path. Call it after every route of `router`
 * is added: it reads them (a path's methods may be spread over several routes). `answer` writes
 * the 405's body, in the surface's own error shape.
 */
export function answerOtherMethods(router: Pick<Router, 'all'> & { stack: unknown[] }, answer: (req: Request, res: Response, allow: string) => void): void {
  const byPath = new Map<string, Set<string>>();
  for (const layer of router.stack as RouteLayer[]) {
    if (layer.route === undefined) continue;
    const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all');
    for (const path of Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]) {
      const known = byPath.get(path) ?? new Set<string>();
      for (const m of methods) known.add(m);
      byPath.set(path, known);
    }
  }
  for (const [path, methods] of byPath) {
    const allow = allowOf(methods);
    router.all(path, (req, res) => {
      res.setHeader('allow', allow);
      if (req.method === 'OPTIONS') res.status(204).end();
      else answer(req, res, allow);
    });
  }
}
