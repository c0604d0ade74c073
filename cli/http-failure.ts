/** A refused HTTP answer as an Error: the envelope's code and message, or the start of the body. */
export async function failure(response: Response): Promise<Error> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return new Error(`${response.status} ${body.error?.code ?? ''}: ${body.error?.message ?? text}`);
  } catch {
    return new Error(`${response.status}: ${text.slice(0, 200)}`);
  }
}
