/**
 * A shard has one alarm and several users of it (subscription re-auth, the
 * registry report, backup runs). Each keeps its own due time in storage and
 * asks for the alarm with this: it only ever moves the alarm earlier, so
 * nobody's time is lost; when the alarm fires, each user checks whether it is
 * due and asks again for its next time.
 *
 * @example await armAlarm(ctx.storage, Date.now() + 10_000);
 */
export async function armAlarm(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || current > at) await storage.setAlarm(at);
}
