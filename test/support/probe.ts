/**
 * How long a test waits for a connection to the shared database servers before it calls them
 * unreachable. A server that is down refuses at once; the wait only matters when the event loop
 * is busy. PGlite compiling its WASM in the same process blocks it for seconds, and pg's connect
 * timer then fires before the socket's connect event is read: 2 s failed a CI run that way.
 */
export const SERVER_CONNECT_TIMEOUT_MS = 15_000;
