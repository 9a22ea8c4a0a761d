// Who can reach this user: whether anyone may add it to a chat directly or only people it already
// shares one with, and whom it blocked. Both are the server's; the page reads them on sign-in and
// changes them only by asking, so a refusal leaves what is shown as it was. Blocking from an
// invitation goes through blockUser here, so the blocked list stays right without a new read.

import { el } from './dom.js';
import { api, current, report } from './session.js';
import * as ui from './ui.js';

const els = {
  policy: document.getElementById('add-policy'),
  blockedList: document.getElementById('blocked-list'),
  blockedEmpty: document.getElementById('blocked-empty'),
  settings: document.getElementById('reach-settings'),
};

const POLICIES = ['co-members', 'anyone'];

/** What this tab knows of the user's add policy and blocks; one per session (s.reach). */
export class Reach {
  constructor() {
    /** 'co-members', 'anyone', or null until the server said which. */
    this.addPolicy = null;
    this.blocked = [];
  }

  setAddPolicy(policy) {
    if (POLICIES.includes(policy)) this.addPolicy = policy;
  }

  setBlocked(users) {
    this.blocked = [...new Set(users.filter((u) => typeof u === 'string'))].sort();
  }

  block(user) {
    this.setBlocked([...this.blocked, user]);
  }

  unblock(user) {
    this.blocked = this.blocked.filter((u) => u !== user);
  }
}

export function startReach(s) {
  s.reach = new Reach();
  renderReach(s);
}

/** Read once on sign-in: only this user changes these, and a change here is drawn at once. */
export async function loadReach(s) {
  const [settings, blocks] = await Promise.all([api.settings(), api.blocks()]);
  if (current !== s) return;
  s.reach.setAddPolicy(settings?.addPolicy);
  if (Array.isArray(blocks?.blocked)) s.reach.setBlocked(blocks.blocked);
  renderReach(s);
}

/** A radio button of the policy changed: ask, and show the server's answer either way. */
export async function onPolicyChange(event) {
  const s = current;
  const chosen = event.target.value;
  if (!s || !POLICIES.includes(chosen) || chosen === s.reach.addPolicy) return;
  els.policy.disabled = true;
  try {
    await api.chooseAddPolicy(chosen);
    if (current !== s) return;
    s.reach.setAddPolicy(chosen);
    ui.toast(chosen === 'anyone'
      ? 'Anyone may add you to a chat now.'
      : 'Only people you share a chat with may add you now; anyone else asks first.', 'info');
  } catch (error) {
    report(error);
  } finally {
    els.policy.disabled = false;
    if (current === s) renderReach(s);
  }
}

/** Blocks a user; true once the server has it. The invitations it sent are gone on the server too. */
export async function blockUser(s, user) {
  await api.block(user);
  if (current !== s) return false;
  s.reach.block(user);
  renderReach(s);
  ui.toast(`You blocked ${user}: their invitations and direct messages no longer reach you.`, 'info');
  return true;
}

/** An Unblock button of the blocked list. */
export async function onBlockedAction(event) {
  const button = event.target.closest('button[data-user]');
  const s = current;
  if (!button || !s) return;
  const { user } = button.dataset;
  button.disabled = true;
  try {
    await api.unblock(user);
    if (current !== s) return;
    s.reach.unblock(user);
    renderReach(s);
    els.settings.querySelector('summary').focus();
    ui.toast(`${user} can invite you and write to you again.`, 'info');
  } catch (error) {
    button.disabled = false;
    report(error);
  }
}

export function renderReach(s) {
  for (const radio of els.policy.querySelectorAll('input[type="radio"]')) {
    radio.checked = radio.value === s.reach.addPolicy;
  }
  els.blockedList.replaceChildren(...s.reach.blocked.map((user) => el('li', {
    className: 'blocked-item',
    attrs: { 'data-testid': 'blocked-user', 'data-user': user },
  }, [
    el('span', { className: 'online-name', text: user }),
    el('button', {
      className: 'button subtle small',
      text: 'Unblock',
      attrs: { type: 'button', 'data-user': user, 'aria-label': `Unblock ${user}` },
    }),
  ])));
  els.blockedEmpty.hidden = s.reach.blocked.length > 0;
}
