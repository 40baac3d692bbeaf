/** The framework floor's path: served by the service's app (./operations.ts) and by bare Hono (./bare-hono.ts). */
export const FLOOR_PATH = '/api/v1/bench/floor';

/**
 * The floor target's calibration: bare Hono kept busy this long per answer (./bare-hono.ts), in the
 * same rounds, shows what so little work per answer does to the throughput the target compares.
 */
export const BARE_WORK_MICROS = 15;
export const BARE_WORK_LABEL = `bare Hono + ${BARE_WORK_MICROS} µs`;
