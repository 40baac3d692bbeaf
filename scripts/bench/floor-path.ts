/** The framework floor's path: served by the service's app (./operations.ts) and by bare Hono (./bare-hono.ts). */
export const FLOOR_PATH = '/api/v1/bench/floor';
