import { createMiddleware } from 'hono/factory';
import { notAcceptable } from '../contract/errors.ts';
import { preferredMediaType } from '../contract/media-types.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Picks the answer's media type from `Accept` among those the operation's `200` offers, after the
 * key's shape and before the parameters (docs/product-rules.md §5, §16). None acceptable: the 406
 * is recorded, not answered, since the key's standing comes before it: the billing edge
 * (http/billing.ts) answers it, or the 401.
 */
export const negotiatedMediaType = createMiddleware<AppEnv>(async (c, next) => {
  const { mediaTypes } = c.get('operation');
  const mediaType = preferredMediaType(c.req.header('accept'), mediaTypes);
  if (mediaType === null) c.set('refusal', notAcceptable(mediaTypes));
  else c.set('mediaType', mediaType);
  await next();
});
