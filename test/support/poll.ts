/** Asks `check` every 50 ms until it holds (true) or `deadlineMs` has passed (false): for effects another process shows late. */
export async function pollUntil(check: () => Promise<boolean>, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
