// Invitations: a chat someone outside the user's chats put them in, which they are not in until
// they accept. The server's list (read on sign-in and on every catch-up) is the truth; a live
// `invitation` event is the fast path for one more. Accepting hands over to the chat list's own
// refresh, the same one a `membership` event starts, so an accepted chat arrives like any other.
// What this module knows lives in one Invitations per session (s.invitations); its list is drawn
// here too, with dom.js's one way of making elements.

import { ApiError } from './api.js';
import { chatLabel, openChat, refreshChats } from './chat.js';
import { el, setBusy } from './dom.js';
import { blockUser } from './reach.js';
import { api, current, report } from './session.js';
import { isValidId } from './state.js';

const els = {
  list: document.getElementById('invitation-list'),
  empty: document.getElementById('invitation-empty'),
  count: document.getElementById('invitation-count'),
  fallbackFocus: document.getElementById('new-chat-button'),
};

function isInvitation(i) {
  return i && typeof i.chatId === 'string' && isValidId(i.chatId) && typeof i.inviter === 'string';
}

/** The invitations waiting for this user's answer, one per chat, newest first. */
export class Invitations {
  constructor() {
    /** chatId → { chatId, inviter, members, invitedAt } */
    this.byChat = new Map();
    /** Chats answered from this tab whose answer is on its way: a list read meanwhile must not bring them back. */
    this.answering = new Set();
  }

  /** The server's whole list, which replaces whatever this tab had. */
  replace(invitations) {
    this.byChat = new Map(invitations.filter(isInvitation)
      .filter((i) => !this.answering.has(i.chatId))
      .map((i) => [i.chatId, i]));
  }

  /** One more from the live event; returns whether it was new to this tab. */
  add(invitation) {
    if (!isInvitation(invitation) || this.answering.has(invitation.chatId)) return false;
    const fresh = !this.byChat.has(invitation.chatId);
    this.byChat.set(invitation.chatId, invitation);
    return fresh;
  }

  remove(chatId) {
    this.byChat.delete(chatId);
  }

  /** A blocked inviter's invitations are gone on the server, every one of them. */
  removeFrom(inviter) {
    for (const [chatId, i] of this.byChat) if (i.inviter === inviter) this.byChat.delete(chatId);
  }

  has(chatId) {
    return this.byChat.has(chatId);
  }

  /** Newest first; an invitation renewed for the same chat moves up. */
  list() {
    const when = (i) => Date.parse(i.invitedAt) || 0;
    return [...this.byChat.values()].sort((a, b) => when(b) - when(a));
  }
}

/** A new session starts with none shown, not the last user's. */
export function startInvitations(s) {
  s.invitations = new Invitations();
  renderInvitations(s);
}

/** Reads the server's list; called with the other pulls on sign-in and on every catch-up. */
export async function loadInvitations(s) {
  const { invitations } = await api.invitations();
  if (current !== s || !Array.isArray(invitations)) return;
  s.invitations.replace(invitations);
  renderInvitations(s);
}

/** A live `invitation` event, sent to the invitee alone. */
export function onInvitationEvent(s, event) {
  // An event that names the chat but not the rest still says something waits: the list has it.
  if (!isInvitation(event.invitation)) loadInvitations(s).catch(report);
  else if (s.invitations.add(event.invitation)) renderInvitations(s);
}

/** The Accept, Decline and block buttons of every item, through one listener on the list. */
export async function onInvitationAction(event) {
  const button = event.target.closest('button[data-action]');
  const item = button?.closest('li[data-chat-id]');
  const s = current;
  if (!item || !s) return;
  const how = button.dataset.action;
  if (how === 'accept' || how === 'decline' || how === 'block') await answer(s, item, item.dataset.chatId, how);
}

async function answer(s, item, chatId, how) {
  const buttons = [...item.querySelectorAll('button')];
  buttons.forEach((b) => setBusy(b, true));
  s.invitations.answering.add(chatId);
  try {
    const { inviter } = item.dataset;
    if (how === 'accept') await api.acceptInvitation(chatId);
    else if (how === 'decline') await api.declineInvitation(chatId);
    else if (!await blockUser(s, inviter)) return;
    if (current !== s) return;
    const next = neighbour(item, how === 'block' ? inviter : null);
    s.invitations.remove(chatId);
    if (how === 'block') s.invitations.removeFrom(inviter);
    renderInvitations(s);
    if (how === 'accept') {
      // The list refresh is the one a `membership` event starts; opening the chat then also
      // gives the focus, which sat on a button that is gone now, somewhere to land.
      await refreshChats(s);
      await openChat(chatId, { focus: true });
    } else {
      (next ?? els.fallbackFocus).focus();
    }
  } catch (error) {
    if (current !== s) return;
    // No invitation there any more (answered elsewhere, expired, or withdrawn by a block): the
    // item is as gone as it would be after an answer, and the person is told why.
    if (error instanceof ApiError && error.status === 404) {
      const next = neighbour(item);
      s.invitations.remove(chatId);
      renderInvitations(s);
      (next ?? els.fallbackFocus).focus();
    } else {
      buttons.forEach((b) => setBusy(b, false));
    }
    report(error);
  } finally {
    s.invitations.answering.delete(chatId);
  }
}

/**
 * Where the focus goes when an item leaves: the Accept of the nearest item that stays, after it
 * or else before it (a block takes every item of the same inviter with it).
 */
function neighbour(item, leavingInviter) {
  const stays = (li) => li && li.dataset.inviter !== leavingInviter;
  let other = item.nextElementSibling;
  while (other && !stays(other)) other = other.nextElementSibling;
  if (!other) {
    other = item.previousElementSibling;
    while (other && !stays(other)) other = other.previousElementSibling;
  }
  return other?.querySelector('button[data-action="accept"]') ?? null;
}

// --- drawing -------------------------------------------------------------------------------

function membersText(count) {
  return Number.isInteger(count) ? `${count} ${count === 1 ? 'member' : 'members'}` : '';
}

function itemFor(invitation) {
  const textId = `invitation-${invitation.chatId}`;
  const members = membersText(invitation.members);
  const sub = el('p', { className: 'invitation-sub', text: members, attrs: { 'data-testid': 'invitation-members' } });
  const when = new Date(invitation.invitedAt);
  if (!Number.isNaN(when.getTime())) {
    sub.append(members ? ' · ' : '', el('time', {
      text: when.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }),
      attrs: { datetime: when.toISOString() },
    }));
  }
  // Every item has the same three buttons: each one is described by its own item's line, so
  // a screen reader moving between buttons hears whose invitation it is.
  const button = (className, text, action, testId) => el('button', {
    className, text, attrs: { type: 'button', 'data-action': action, 'data-testid': testId, 'aria-describedby': textId },
  });
  return el('li', {
    className: 'invitation',
    attrs: { 'data-testid': 'invitation', 'data-chat-id': invitation.chatId, 'data-inviter': invitation.inviter },
  }, [
    el('p', { className: 'invitation-text', attrs: { id: textId } }, [
      el('strong', { className: 'invitation-inviter', text: invitation.inviter }),
      ' invites you to ',
      el('span', { className: 'invitation-chat', text: chatLabel(invitation.chatId), attrs: { 'data-testid': 'invitation-chat' } }),
    ]),
    sub,
    el('div', { className: 'invitation-actions' }, [
      button('button primary small', 'Accept', 'accept', 'invitation-accept'),
      button('button small', 'Decline', 'decline', 'invitation-decline'),
      button('button subtle small', 'Decline and block', 'block', 'invitation-block'),
    ]),
  ]);
}

/**
 * Items are kept while their invitation stays, so one still being answered keeps its busy
 * buttons and a focused button keeps the focus when another invitation arrives.
 */
export function renderInvitations(s) {
  const invitations = s.invitations.list();
  const existing = new Map([...els.list.children].map((li) => [li.dataset.chatId, li]));
  let cursor = els.list.firstElementChild;
  for (const invitation of invitations) {
    const signature = JSON.stringify([invitation.inviter, invitation.members, invitation.invitedAt]);
    let li = existing.get(invitation.chatId);
    existing.delete(invitation.chatId);
    if (li && li.dataset.signature !== signature) {
      const fresh = itemFor(invitation);
      li.replaceWith(fresh);
      if (cursor === li) cursor = fresh;
      li = fresh;
    }
    if (!li) li = itemFor(invitation);
    li.dataset.signature = signature;
    if (li !== cursor) els.list.insertBefore(li, cursor);
    else cursor = cursor.nextElementSibling;
  }
  for (const li of existing.values()) li.remove();
  els.empty.hidden = invitations.length > 0;
  els.count.textContent = invitations.length ? `(${invitations.length})` : '';
}
