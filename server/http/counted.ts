// One document of an account's quota around its making: reserved before, committed when the answer is made, released
// when it fails or the client left. Used by every operation that makes one document (routes.ts; POST /batch reserves
// its documents itself, batch.ts). Knows nothing of what is made.
import type { Response } from 'express';
import { errors } from '../errors';
import type { Plan } from '../keys/key-store';
import type { Quota } from '../quota/quota';
import { watchClient } from './client-gone';
import { rateLimitHeaders } from './rate-limit';

/**
 * Runs `render` on one reserved document of the account's quota: committed on success, released on failure. The
 * render gets a signal that aborts when the client goes away (its render is cancelled, in the queue or mid-print);
 * a document finished for a client that has left is not counted either. A counted document's answer carries the
 * RateLimit headers of its reservation (rate-limit.ts; none for unlimited plans).
 */
export async function counted<T>(quota: Quota, res: Response, render: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const client = watchClient(res);
  const ticket = await quota.reserve(res.locals.account as string, res.locals.plan as Plan);
  try {
    const out = await render(client.signal);
    if (client.signal.aborted) throw errors.clientClosed();
    await ticket.commit();
    res.set(rateLimitHeaders(ticket.state));
    return out;
  } catch (err) {
    await ticket.release();
    throw err;
  } finally {
    client.release();
  }
}
