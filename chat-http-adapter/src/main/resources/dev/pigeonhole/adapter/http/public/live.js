// The live socket (GET /api/live). It is only the fast path: whenever it is down the page pulls,
// and whenever it comes back the page pulls once more, so nothing here has to be reliable.

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
// A server that accepts and at once closes (say, a slow-consumer loop) must not get a tight
// reconnect loop: the backoff only starts over once a socket has stayed up this long.
const STABLE_AFTER_MS = 10_000;
// Browsers may wait minutes on a connect that goes nowhere; give up sooner and try again.
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * @param {object} options
 * @param {() => string | null} options.url  the socket URL, asked afresh per attempt (the token can change)
 * @param {(event: object) => void} options.onEvent  each parsed event
 * @param {() => void} options.onOpen  connected (a reconnect too: time to catch up)
 * @param {(info: { code: number, reason: string, retryInMs: number }) => void} options.onDown
 */
export function createLive({ url, onEvent, onOpen, onDown }) {
  let socket = null;
  let running = false;
  let attempt = 0;
  let retryTimer = 0;
  let connectTimer = 0;
  let stableTimer = 0;

  function delayFor(n) {
    const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** n);
    // Jitter, so that clients cut off together by a restart do not all come back together.
    return Math.round(ceiling / 2 + Math.random() * ceiling / 2);
  }

  function clearTimers() {
    clearTimeout(retryTimer);
    clearTimeout(connectTimer);
    clearTimeout(stableTimer);
  }

  function connect() {
    clearTimers();
    const target = url();
    if (!running || !target) {
      return;
    }
    let ws;
    try {
      ws = new WebSocket(target);
    } catch {
      scheduleRetry(0, 'could not open');
      return;
    }
    socket = ws;
    connectTimer = setTimeout(() => {
      if (ws.readyState === WebSocket.CONNECTING) {
        ws.close();
      }
    }, CONNECT_TIMEOUT_MS);

    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      clearTimeout(connectTimer);
      stableTimer = setTimeout(() => { attempt = 0; }, STABLE_AFTER_MS);
      onOpen();
    });

    ws.addEventListener('message', (frame) => {
      if (socket !== ws || typeof frame.data !== 'string') return;
      let event;
      try {
        event = JSON.parse(frame.data);
      } catch {
        return;
      }
      if (event && typeof event.type === 'string') {
        onEvent(event);
      }
    });

    ws.addEventListener('close', (closed) => {
      if (socket !== ws) return;
      socket = null;
      clearTimers();
      if (running) {
        scheduleRetry(closed.code, closed.reason);
      }
    });
  }

  function scheduleRetry(code, reason) {
    const retryInMs = delayFor(attempt);
    attempt += 1;
    retryTimer = setTimeout(connect, retryInMs);
    onDown({ code, reason, retryInMs });
  }

  function drop() {
    const ws = socket;
    socket = null;
    if (ws && ws.readyState <= WebSocket.OPEN) {
      ws.close(1000, 'bye');
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      attempt = 0;
      connect();
    },

    stop() {
      running = false;
      clearTimers();
      drop();
    },

    /** Skip the wait: the network came back or the tab was brought to the front. */
    reconnectNow() {
      if (!running || socket) return;
      attempt = 0;
      connect();
    },

    get isOpen() {
      return socket !== null && socket.readyState === WebSocket.OPEN;
    },
  };
}

/** ws: or wss: to match the page, so the socket is as private as the page itself. */
export function liveUrl(token) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/live?token=${encodeURIComponent(token)}`;
}
