// The chat view around the list: opening it, its header, the edge of its history, the composer.

import { els } from './dom.js';
import { chatTitle, isMadeUp, membersLine } from './format.js';
import { insertMessages, scrollToBottom } from './messages.js';
import { addPendingSend } from './pending.js';
import { showMain } from './screens.js';

export function openChatView(chat, me, messages, pendingSends) {
  updateChatHeader(chat, me);
  els.inviteForm.reset();
  els.inviteError.textContent = '';
  els.messageList.replaceChildren();
  els.messageList.dataset.openChat = chat.chatId;
  insertMessages(messages, me, { scroll: 'bottom' });
  for (const send of pendingSends) addPendingSend(send, me);
  showMain('chat');
  scrollToBottom();
}

/** Keep the header right when the members change while the chat is open. */
export function updateChatHeader(chat, me) {
  els.chatTitle.textContent = chatTitle(chat, me);
  els.chatMembers.textContent = isMadeUp(chat.chatId)
    ? `Chat ${chat.chatId} · ${membersLine(chat, me, 8)}`
    : membersLine(chat, me, 8);
  els.chatAccess.textContent = chat.open
    ? 'Open: anyone who has its id can join.'
    : 'Private: only its members can add people.';
}

export function setHistoryEdge({ canLoadOlder, note }) {
  els.loadOlder.hidden = !canLoadOlder;
  els.historyNote.textContent = note ?? '';
}

export function fitComposer() {
  const input = els.messageInput;
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}
