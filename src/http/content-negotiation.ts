import { createMiddleware } from 'hono/factory';
import { notAcceptable } from '../contract/errors.ts';
import { preferredMediaType } from '../contract/media-types.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Picks the answer's media type from `Accept` among those the operation's `200` offers, after the
 * key and before the parameters (docs/product-rules.md §5, §16); none acceptable: 406, free.
 */
export const negotiatedMediaType = createMiddleware<AppEnv>(async (c, next) => {
  const { mediaTypes } = c.get('operation');
  const mediaType = preferredMediaType(c.req.header('accept'), mediaTypes);
  if (mediaType === null) throw notAcceptable(mediaTypes);
  c.set('mediaType', mediaType);
  await next();
});
