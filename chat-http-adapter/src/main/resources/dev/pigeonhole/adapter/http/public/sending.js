// Sending. A message shows at once as on its way, then goes out under one idempotency key for
// every attempt: a send whose answer was lost is retried by itself a few times, then offered to
// the person to try again; one the server refuses puts the words back in the box. A person's
// messages reach a chat in the order they were typed: each chat's sends go out one after
// another, the next once the one before it has settled (sent, refused, or given up), since two
// requests in flight at once may reach the server in either order.

import { ApiError, isTransient, newIdempotencyKey } from './api.js';
import { refreshChats, scheduleAck } from './chat.js';
import { api, current, report } from './session.js';
import * as ui from './ui.js';

const { els } = ui;

const SEND_RETRIES = 3;

export function submitMessage(event) {
  event.preventDefault();
  const s = current;
  const chatId = s?.state.openChatId;
  const text = els.messageInput.value;
  if (!chatId || !text.trim()) return;
  els.messageInput.value = '';
  ui.fitComposer();
  const send = s.state.sends.add(chatId, text, newIdempotencyKey());
  ui.addPendingSend(send, s.user);
  inTurn(s, send);
}

/** Sends after the chat's sends before it have settled. */
function inTurn(s, send) {
  const queues = s.sendQueues;
  const settled = (queues.get(send.chatId) ?? Promise.resolve()).then(() => attemptSend(s, send));
  queues.set(send.chatId, settled);
  settled.finally(() => {
    if (queues.get(send.chatId) === settled) queues.delete(send.chatId);
  });
}

const pause = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

/** Sends, retrying by itself what may not have arrived; settles when it has nothing left to try. */
async function attemptSend(s, send) {
  while (current === s) { // a sign-out ends what was still trying
    try {
      // The same key on every attempt: if an earlier one did reach the server, this one gets the
      // stored message back instead of posting it twice.
      const message = await api.send(send.chatId, send.text, send.key);
      if (current !== s) return;
      s.state.sends.drop(send.key);
      ui.removePendingSend(send.key);
      const fresh = s.state.noteMessage(send.chatId, message);
      if (fresh && s.state.openChatId === send.chatId) ui.insertMessages([message], s.user);
      ui.renderChatList(s.state);
      scheduleAck(s);
      return;
    } catch (error) {
      if (current !== s) return;
      if (isTransient(error) && send.attempts < SEND_RETRIES) {
        s.state.sends.retrying(send.key);
        ui.setPendingStatus(send, send.status);
        await pause(1_000 * 2 ** send.attempts);
        continue;
      }
      failed(s, send, error);
      return;
    }
  }
}

/** A send that will not go out by itself: given up after its retries, or refused. */
function failed(s, send, error) {
  report(error);
  if (isTransient(error)) {
    s.state.sends.failed(send.key);
    ui.setPendingStatus(send, send.status);
    return;
  }
  // Refused (too long, no longer a member…): trying again would be refused again, so the words
  // go back in the box for the person to fix.
  s.state.sends.drop(send.key);
  ui.removePendingSend(send.key);
  if (s.state.openChatId === send.chatId && !els.messageInput.value) {
    els.messageInput.value = send.text;
    ui.fitComposer();
  }
  if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
    // Not a member any more (left on another device): the list is out of date.
    refreshChats(s).catch(report);
  }
}

/** The buttons of a failed send: try again (same key) or discard. */
export function onPendingAction(event) {
  const button = event.target.closest('button[data-action]');
  const s = current;
  const send = s?.state.sends.get(button?.dataset.key);
  if (!send) return;
  if (button.dataset.action === 'retry') {
    s.state.sends.again(send.key);
    ui.setPendingStatus(send, send.status);
    inTurn(s, send);
  } else {
    s.state.sends.drop(send.key);
    ui.removePendingSend(send.key);
    els.messageInput.focus();
  }
}

export function onComposerKey(event) {
  // Enter sends; Shift+Enter is a new line; Enter while an IME is composing picks the word.
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
    event.preventDefault();
    els.composer.requestSubmit();
  }
}
