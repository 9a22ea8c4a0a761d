// The open chat: opening one from the list, filling it up to the newest message, older history
// on demand, and acknowledging what is on screen. The chat list is refreshed here too, because a
// refresh can find that the open chat is no longer the user's.

import { ApiError, isTransient } from './api.js';
import { api, current, report } from './session.js';
import * as ui from './ui.js';

const { els } = ui;

const PAGE = 50;
const ACK_DELAY_MS = 300;

/** How a notice names a chat: a bare number reads oddly in a sentence. */
export function chatLabel(chatId) {
  return /^\d+$/.test(chatId) ? `chat #${chatId}` : chatId;
}

/** The server's chat list, with members and unread counts; closes the open chat if it is gone. */
export async function refreshChats(s) {
  const list = await api.listChats();
  if (current !== s) return;
  const before = s.state.coMembers();
  const gone = s.state.setChats(list);
  // Acknowledging a chat one is no longer in would refuse the whole batch it goes in.
  for (const chatId of gone) s.unacked.delete(chatId);
  if (gone.includes(s.state.openChatId)) {
    ui.toast(`You are no longer in ${chatLabel(s.state.openChatId)}.`, 'info');
    closeChat(s);
  } else if (s.state.openChatId) {
    ui.updateChatHeader(s.state.chats.get(s.state.openChatId), s.user);
  }
  ui.renderChatList(s.state);
  // The server shows the presence of the people we share a chat with, and pushes only changes:
  // someone newly sharing one may be online already, someone no longer sharing one must go.
  const after = s.state.coMembers();
  if (after.size !== before.size || [...after].some((user) => !before.has(user))) await refreshPresence(s);
}

/** Who of the people we share a chat with is online; the live diffs keep it up to date. */
export async function refreshPresence(s) {
  const { online } = await api.presence();
  if (current !== s) return;
  s.state.setOnline(online);
  ui.renderOnline(s.state);
}

export async function openChat(chatId, { focus = false } = {}) {
  const s = current;
  const chat = s?.state.chats.get(chatId);
  if (!chat) return;
  noteShown(s);
  s.state.setOpenChat(chatId);
  history.replaceState(null, '', `#chat=${encodeURIComponent(chatId)}`);
  ui.openChatView(chat, s.user, s.state.history.messagesOf(chatId), s.state.sends.in(chatId));
  updateHistoryEdge(s, chatId);
  ui.renderChatList(s.state);
  if (focus) els.messageInput.focus();
  try {
    // What loads on opening is history, not news: no one needs it read out.
    await fillOpenChat(s, { announce: false });
  } catch (error) {
    report(error);
  }
}

export function closeChat(s) {
  // Focus inside a view that is about to be hidden would fall back to <body>.
  const hadFocus = els.chatView.contains(document.activeElement);
  noteShown(s);
  scheduleAck(s);
  s.state.setOpenChat(null);
  history.replaceState(null, '', location.pathname + location.search);
  ui.clearMessages();
  ui.showMain('welcome');
  ui.renderChatList(s.state);
  if (hadFocus) els.newChatButton.focus();
}

/** The back button of a narrow screen: close the chat and land on it in the list. */
export function backToList() {
  const s = current;
  const was = s?.state.openChatId;
  if (s) closeChat(s);
  const item = was && els.chatList.querySelector(`li[data-chat-id="${CSS.escape(was)}"] button`);
  (item || els.newChatButton).focus();
}

/**
 * Bring the open chat up to its newest message: from the end of what it has shown without a
 * hole, or, holding none, from one page before the end. Loops because more may arrive while it
 * reads.
 */
export async function fillOpenChat(s, { announce = true } = {}) {
  const chatId = s.state.openChatId;
  if (!chatId) return;
  const newest = s.state.history.newestId(chatId);
  const holding = newest > 0;
  let after = Math.min(newest, s.state.shownUpTo(chatId));
  if (!holding) {
    const probe = await api.readMessages(chatId, 0, 1);
    if (current !== s || s.state.openChatId !== chatId) return;
    s.state.noteFirstAvailable(chatId, probe.firstAvailableId);
    after = Math.max(probe.firstAvailableId - 1, probe.lastId - PAGE, 0);
  }
  for (let round = 0; round < 40; round += 1) {
    const page = await api.readMessages(chatId, after, PAGE);
    if (current !== s || s.state.openChatId !== chatId) return;
    s.state.noteFirstAvailable(chatId, page.firstAvailableId);
    const fresh = s.state.history.add(chatId, page.messages);
    s.state.noteLastId(chatId, page.lastId);
    if (fresh.length) {
      ui.insertMessages(fresh, s.user, { gapBefore: holding && page.gap });
      if (announce && holding) {
        for (const m of fresh) if (m.sender !== s.user) ui.announce(`${m.sender}: ${m.message}`);
      }
    }
    const last = page.messages.length ? page.messages[page.messages.length - 1].id : after;
    if (!page.messages.length || last >= page.lastId) break;
    after = last;
  }
  updateHistoryEdge(s, chatId);
  ui.renderChatList(s.state);
  scheduleAck(s);
}

/** New messages for the open chat, from a pull or the socket: shown, read out, acknowledged. */
export function showNewMessages(s, messages) {
  ui.insertMessages(messages, s.user);
  for (const m of messages) {
    if (m.sender !== s.user) ui.announce(`${m.sender}: ${m.message}`);
  }
  scheduleAck(s);
}

export async function loadOlder() {
  const s = current;
  const chatId = s?.state.openChatId;
  if (!chatId) return;
  const oldest = s.state.history.oldestId(chatId);
  const first = s.state.firstAvailable.get(chatId) ?? 1;
  const after = Math.max(first - 1, oldest - 1 - PAGE, 0);
  const limit = oldest - 1 - after;
  if (limit <= 0) {
    updateHistoryEdge(s, chatId);
    return;
  }
  ui.setBusy(els.loadOlder, true);
  try {
    const page = await api.readMessages(chatId, after, limit);
    if (current !== s || s.state.openChatId !== chatId) return;
    s.state.noteFirstAvailable(chatId, page.firstAvailableId);
    ui.insertMessages(s.state.history.add(chatId, page.messages), s.user, { scroll: 'keep' });
  } catch (error) {
    report(error);
  } finally {
    ui.setBusy(els.loadOlder, false);
  }
  updateHistoryEdge(s, chatId);
  if (els.loadOlder.hidden) els.messageInput.focus();
}

function updateHistoryEdge(s, chatId) {
  const oldest = s.state.history.oldestId(chatId);
  const first = s.state.firstAvailable.get(chatId);
  const chat = s.state.chats.get(chatId);
  const canLoadOlder = oldest > 1 && first !== undefined && oldest > first;
  let note = '';
  if (oldest === 1) note = 'This is the beginning of the chat.';
  else if (!canLoadOlder && (oldest > 1 || (chat && chat.lastId > 0 && first !== undefined))) {
    // The server drops what every member has read; say so rather than look empty or broken.
    note = 'Earlier messages were read by everyone and are no longer kept.';
  }
  ui.setHistoryEdge({ canLoadOlder, note });
}

/** Acknowledge what is on screen, but only while someone could be looking at it. */
export function scheduleAck(s) {
  clearTimeout(s.ackTimer);
  s.ackTimer = setTimeout(() => acknowledge(s), ACK_DELAY_MS);
}

/**
 * Remembers how far the open chat is shown, for the next acknowledgement. Also called as the page
 * leaves a chat, so what was seen there is acknowledged with the rest even when the user moved on
 * before the delay was up.
 */
function noteShown(s) {
  const chatId = s.state.openChatId;
  if (!chatId || document.hidden) return;
  fillHole(s, chatId);
  // Only as far as the run shown without a hole; the fill schedules the ack again when it is done.
  const upTo = s.state.needsAck(chatId);
  if (upTo) s.unacked.set(chatId, Math.max(upTo, s.unacked.get(chatId) ?? 0));
}

/**
 * Every chat shown since the last acknowledgement, in one request (POST /api/read). One request
 * at a time: what is shown meanwhile goes in the next, which follows this one.
 */
async function acknowledge(s) {
  if (current !== s) return;
  noteShown(s);
  if (!s.unacked.size) return;
  if (s.acknowledging) {
    s.acknowledgeAgain = true;
    return;
  }
  s.acknowledging = true;
  const batch = new Map(s.unacked);
  try {
    await api.acknowledgeChats(Object.fromEntries(batch));
    if (current !== s) return;
    for (const [chatId, upTo] of batch) {
      s.state.noteAcknowledged(chatId, upTo);
      if ((s.unacked.get(chatId) ?? 0) <= upTo) s.unacked.delete(chatId);
    }
    ui.renderChatList(s.state);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      // A chat of the batch is gone or left, and the server refused the whole batch: the list
      // says which. What was shown of the others stays unread until it is shown again.
      for (const chatId of batch.keys()) s.unacked.delete(chatId);
      refreshChats(s).catch(report);
    } else if (!isTransient(error)) {
      report(error);
    }
  } finally {
    s.acknowledging = false;
    if (s.acknowledgeAgain) {
      s.acknowledgeAgain = false;
      scheduleAck(s);
    }
  }
}

/**
 * Something is shown past a hole: pull what is missing (GET .../messages?after=<end of the run>).
 * Once per place, so a hole no pull can fill is not pulled for ever; the run moving on allows
 * another. What fills a hole is older than what is shown around it, so it is not read out.
 */
function fillHole(s, chatId) {
  if (!s.state.hasHole(chatId)) return;
  const place = `${chatId} ${s.state.shownUpTo(chatId)}`;
  if (s.holeFilledFrom === place) return;
  s.holeFilledFrom = place;
  fillOpenChat(s, { announce: false }).catch((error) => {
    if (!isTransient(error)) report(error);
  });
}
