/**
 * The lab's time scale. The lab replays a pod deletion 10× faster than a cluster would run it:
 * one model second (the unit of every plan number, request length and health-check interval in the
 * lab) takes 100 ms of wall-clock time. The drain research found timing noise on a busy 2-core host
 * grows sharply below about 100 ms per model second, so the lab does not go faster.
 */

export const WALL_MS_PER_MODEL_SECOND = 100;

export function toWallMs(modelSeconds: number): number {
  return modelSeconds * WALL_MS_PER_MODEL_SECOND;
}

export function toModelSeconds(wallMs: number): number {
  return wallMs / WALL_MS_PER_MODEL_SECOND;
}
