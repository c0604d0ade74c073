/**
 * The change listener's own rules: what a payload must look like, that nothing
 * on the channel can crash it, and how it drives the cache when its connection comes and goes.
 * A fake session stands in for the PostgreSQL connection (test/control/change-notify.test.ts runs
 * the real one).
 */
import { describe, expect, it } from 'vitest';
import { ChangeListener, type ChangeSession, type ChangeSessionHandlers, type ChangeTarget } from '../../core/workspace/change-listener.ts';
import { parseChangeNotice } from '../../core/workspace/change-notice.ts';

const WS = '6f1c1a52-3a8e-4a57-9f61-1f0e2b1c9d10';

describe('parseChangeNotice', () => {
  it('reads the notices the store sends (jsonb text: keys in any order, spaces)', () => {
    expect(parseChangeNotice(`{"kind": "workspace", "version": 7, "workspaceId": "${WS}"}`)).toEqual({ kind: 'workspace', workspaceId: WS, version: 7 });
    expect(parseChangeNotice(`{"kind":"workspace","workspaceId":"${WS}"}`)).toEqual({ kind: 'workspace', workspaceId: WS });
    expect(parseChangeNotice(`{"id": "0123456789abcdef", "kind": "apiKey", "workspaceId": "${WS}"}`)).toEqual({ kind: 'apiKey', id: '0123456789abcdef', workspaceId: WS });
  });

  it('anything else is no notice', () => {
    const junk = ['', 'not json', 'null', '[]', '"workspace"', '42', '{}', `{"workspaceId":"${WS}"}`, '{"kind":"workspace"}', '{"kind":"workspace","workspaceId":""}',
      '{"kind":"workspace","workspaceId":7}', `{"kind":"apiKey","workspaceId":"${WS}"}`, `{"kind":"nope","workspaceId":"${WS}"}`, '{"kind":'];
    for (const payload of junk) expect(parseChangeNotice(payload), payload).toBeUndefined();
  });

  it('a version that is not a number is left out, not trusted', () => {
    expect(parseChangeNotice(`{"kind":"workspace","workspaceId":"${WS}","version":"7"}`)).toEqual({ kind: 'workspace', workspaceId: WS });
  });
});

/** A target that records what it was told. */
function recordingTarget(): ChangeTarget & { calls: string[] } {
  const calls: string[] = [];
  return { calls, invalidate: (id) => void calls.push(`invalidate ${id}`), setListening: (up) => void calls.push(`listening ${up}`) };
}

/** Opens fake sessions; `failNext` makes the next opens throw; `lose()` ends the open one. */
function fakeConnections() {
  const state = { failNext: 0, opened: 0, pingFails: false, handlers: undefined as ChangeSessionHandlers | undefined };
  const open = async (handlers: ChangeSessionHandlers): Promise<ChangeSession> => {
    if (state.failNext > 0) {
      state.failNext -= 1;
      throw new Error('connection refused');
    }
    state.opened += 1;
    state.handlers = handlers;
    return { ping: async () => { if (state.pingFails) throw new Error('gone'); }, close: async () => undefined };
  };
  return { state, open, lose: () => state.handlers?.onLost(), send: (payload: string) => state.handlers?.onPayload(payload) };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('ChangeListener', () => {
  const backoff = { initialMs: 1, maxMs: 4 };

  it('drops the workspace a notice names; bad payloads are counted and reported, never thrown', async () => {
    const target = recordingTarget();
    const fake = fakeConnections();
    const reports: string[] = [];
    const listener = new ChangeListener({ open: fake.open, target, backoff, report: (event) => void reports.push(event) });
    await listener.start();
    expect(listener.up).toBe(true);
    for (const bad of ['junk', '{"kind":"workspace"}', 'null', '\u0000']) expect(() => fake.send(bad)).not.toThrow();
    fake.send(`{"kind":"workspace","workspaceId":"${WS}","version":3}`);
    fake.send(`{"kind":"apiKey","id":"0123456789abcdef","workspaceId":"${WS}"}`);
    expect(target.calls).toEqual(['listening true', `invalidate ${WS}`]);
    expect({ received: listener.received, ignored: listener.ignored }).toEqual({ received: 2, ignored: 4 });
    expect(reports.filter((r) => r === 'bad-payload')).toHaveLength(4);
    await listener.close();
  });

  it('subscribers hear every notice, API keys included; one that throws stops neither the others nor the listener', async () => {
    const fake = fakeConnections();
    const listener = new ChangeListener({ open: fake.open, target: recordingTarget(), backoff });
    const heard: string[] = [];
    listener.subscribe(() => {
      throw new Error('a broken subscriber');
    });
    listener.subscribe((notice) => void heard.push(notice.kind));
    await listener.start();
    expect(() => fake.send(`{"kind":"apiKey","id":"0123456789abcdef","workspaceId":"${WS}"}`)).not.toThrow();
    expect(heard).toEqual(['apiKey']);
    await listener.close();
  });

  it('a follower (the API key cache) is told the state when it follows, every change of it, and every notice', async () => {
    const fake = fakeConnections();
    const listener = new ChangeListener({ open: fake.open, target: recordingTarget(), backoff });
    const told: string[] = [];
    const follower = { hear: (notice: { kind: string }) => void told.push(notice.kind), setListening: (up: boolean) => void told.push(`listening ${up}`) };
    listener.follow(follower);
    await listener.start();
    fake.send(`{"kind":"apiKey","id":"0123456789abcdef","workspaceId":"${WS}"}`);
    fake.lose();
    await until(() => listener.up);
    await listener.close();
    expect(told).toEqual(['listening false', 'listening true', 'apiKey', 'listening false', 'listening true', 'listening false']);
    const late: string[] = [];
    const running = new ChangeListener({ open: fakeConnections().open, target: recordingTarget(), backoff });
    await running.start();
    running.follow({ hear: () => undefined, setListening: (up) => void late.push(`listening ${up}`) });
    expect(late).toEqual(['listening true']);
    await running.close();
  });

  it('a lost connection: the cache falls back at once, the listener reconnects (after failed tries) and the cache drops everything', async () => {
    const target = recordingTarget();
    const fake = fakeConnections();
    const listener = new ChangeListener({ open: fake.open, target, backoff });
    await listener.start();
    fake.state.failNext = 3;
    fake.lose();
    expect(listener.up).toBe(false);
    expect(target.calls).toEqual(['listening true', 'listening false']);
    await until(() => listener.up);
    expect(target.calls).toEqual(['listening true', 'listening false', 'listening true']);
    expect({ opened: fake.state.opened, reconnects: listener.reconnects }).toEqual({ opened: 2, reconnects: 1 });
    await listener.close();
  });

  it('a first connection that fails leaves the cache checking versions and is retried', async () => {
    const target = recordingTarget();
    const fake = fakeConnections();
    fake.state.failNext = 2;
    const reports: string[] = [];
    const listener = new ChangeListener({ open: fake.open, target, backoff, report: (event) => void reports.push(event) });
    await listener.start();
    expect(listener.up).toBe(false);
    await until(() => listener.up);
    expect(reports).toEqual(['connect-failed', 'connect-failed', 'listening']);
    expect(listener.reconnects).toBe(0);
    await listener.close();
  });

  it('a connection that stops answering pings counts as lost', async () => {
    const target = recordingTarget();
    const fake = fakeConnections();
    const listener = new ChangeListener({ open: fake.open, target, backoff: { initialMs: 10_000, maxMs: 10_000 }, heartbeatMs: 5 });
    await listener.start();
    fake.state.pingFails = true;
    await until(() => !listener.up);
    expect(target.calls).toEqual(['listening true', 'listening false']);
    await listener.close();
  });

  it('after close nothing reconnects', async () => {
    const fake = fakeConnections();
    const listener = new ChangeListener({ open: fake.open, target: recordingTarget(), backoff });
    await listener.start();
    await listener.close();
    fake.lose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect({ up: listener.up, opened: fake.state.opened }).toEqual({ up: false, opened: 1 });
  });
});
