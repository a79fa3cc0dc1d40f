/**
 * Makes the shard's one alarm fire now, unless it is already due sooner.
 * Several parts of a shard share that alarm (subscription expiry, migration
 * batches, index builds): each only ever moves it earlier, and the shard's
 * `alarm()` asks each part in turn whether it has work.
 *
 * @example await alarmNow(ctx.storage);
 */
export async function alarmNow(storage: DurableObjectStorage): Promise<void> {
  const current = await storage.getAlarm();
  const now = Date.now();
  if (current === null || current > now) await storage.setAlarm(now);
}
