// The HTTP side of the page: one place that knows paths, the bearer token and RFC 9457
// problems, so the rest of the page deals in plain values and two kinds of failure.

const TIMEOUT_MS = 15_000;

/** The server answered, and said no. `detail` is written for people, so the page shows it. */
export class ApiError extends Error {
  constructor(status, problem, retryAfter) {
    const detail = problem.detail || problem.title || `The server answered ${status}.`;
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.type = problem.type ?? 'about:blank';
    this.title = problem.title ?? '';
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/**
 * The request got no answer (offline, server down, timed out). It may still have reached the
 * server, which is why sends carry an idempotency key and can simply be repeated.
 */
export class NetworkError extends Error {
  constructor(cause) {
    super('Could not reach the server. Check your connection.', { cause });
    this.name = 'NetworkError';
  }
}

/** Worth trying again later, as opposed to a refusal that will be the same next time. */
export function isTransient(error) {
  return error instanceof NetworkError
      || (error instanceof ApiError && (error.status === 502 || error.status === 503 || error.status === 504));
}

/**
 * A key for POST .../messages. randomUUID only exists on secure origins, and the page may be
 * served over plain http on a LAN, so fall back to getRandomValues, which exists everywhere.
 */
export function newIdempotencyKey() {
  if (typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function problemOf(response) {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return await response.json();
    } catch {
      // A proxy's error page with a JSON content type: fall through to the status line.
    }
  }
  return { title: response.statusText, detail: `The server answered ${response.status} ${response.statusText}`.trim() };
}

/**
 * @param {object} options
 * @param {() => string | null} options.getToken
 * @param {(error: ApiError) => void} options.onUnauthorized  a signed-in call was refused with
 *   401: the token expired, or the server restarted with a new signing secret. Either way only
 *   signing in again helps.
 * @param {(reachable: boolean) => void} [options.onReachable]  after every call, whether the
 *   server answered, so the page can say "Offline" without probing on its own
 */
export function createApi({ getToken, onUnauthorized, onReachable = () => {} }) {
  async function request(method, path, { body, auth = true, token: handed } = {}) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const token = auth ? (handed ?? getToken()) : null;
    if (token) {
      headers.Authorization = `Bearer ${token}`;
    }
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        cache: 'no-store',
      });
    } catch (cause) {
      onReachable(false);
      throw new NetworkError(cause);
    }
    onReachable(!(response.status === 502 || response.status === 503 || response.status === 504));
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after')) || undefined;
      const error = new ApiError(response.status, await problemOf(response), retryAfter);
      if (response.status === 401 && auth) {
        onUnauthorized(error);
      }
      throw error;
    }
    if (response.status === 204) {
      return undefined;
    }
    try {
      return await response.json();
    } catch (cause) {
      // The body was cut off mid-way: to the caller that is the same as no answer.
      throw new NetworkError(cause);
    }
  }

  const seg = encodeURIComponent;

  return {
    signIn: (user) => request('POST', '/api/session', { body: { user }, auth: false }),

    /** Whom a token the page was handed signs in, as the server reads it. */
    caller: (token) => request('GET', '/api/session', { token }),

    listChats: () => request('GET', '/api/chats'),

    createChat: ({ members, message, chatId, open }) => request('POST', '/api/chats', {
      body: chatId ? { members, message, chatId, open } : { members, message, open },
    }),

    readMessages: (chat, after, limit) =>
      request('GET', `/api/chats/${seg(chat)}/messages?after=${after}&limit=${limit}`),

    send: (chat, message, idempotencyKey) =>
      request('POST', `/api/chats/${seg(chat)}/messages`, { body: { message, idempotencyKey } }),

    pending: () => request('GET', '/api/pending'),

    /** Every chat of {chatId: upTo} at once, all or nothing. */
    acknowledgeChats: (chats) => request('POST', '/api/read', { body: { chats } }),

    join: (chat) => request('POST', `/api/chats/${seg(chat)}/members`),

    invite: (chat, user) => request('POST', `/api/chats/${seg(chat)}/members`, { body: { user } }),

    leave: (chat, user) => request('DELETE', `/api/chats/${seg(chat)}/members/${seg(user)}`),

    presence: () => request('GET', '/api/presence'),
    /** The oldest messages of one's own mailbox; reading removes nothing. */
    readMailbox: (max) => request('GET', `/api/mailbox?max=${max}`),
    /** Removes every message of one's own mailbox up to an id: what the page has shown. */
    acknowledgeMailbox: (upTo) => request('POST', '/api/mailbox/read', { body: { upTo } }),

    /** Chats this user was put in by someone it shares none with, waiting for its answer. */
    invitations: () => request('GET', '/api/invitations'),
    acceptInvitation: (chat) => request('POST', `/api/invitations/${seg(chat)}/accept`),
    declineInvitation: (chat) => request('POST', `/api/invitations/${seg(chat)}/decline`),
    /** Whether anyone may add this user to a chat directly, or only those sharing one with it. */
    settings: () => request('GET', '/api/settings'),
    chooseAddPolicy: (addPolicy) => request('PUT', '/api/settings', { body: { addPolicy } }),
    blocks: () => request('GET', '/api/blocks'),
    block: (user) => request('POST', '/api/blocks', { body: { user } }),
    unblock: (user) => request('DELETE', `/api/blocks/${seg(user)}`),
  };
}
