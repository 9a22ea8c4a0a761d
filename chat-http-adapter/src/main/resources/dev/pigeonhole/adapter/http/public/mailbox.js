// The mailbox: messages sent to this user alone. The server keeps each one until it is
// acknowledged, so the page reads the mailbox (on load, and whenever it catches up), shows what
// it got, and only then acknowledges up to the newest id shown. An answer lost on the way loses
// nothing: the next read brings the same messages, and they are merged by id. A live `mailbox`
// event is the fast path for the same thing.

import { ApiError, isTransient } from './api.js';
import { api, current, report } from './session.js';
import * as ui from './ui.js';

// As many as the server hands out by default; a fuller mailbox is read page after page.
const PAGE = 100;
const MAX_PAGES = 10;

/** Reads what waits in the mailbox, shows it and acknowledges it, page after page. */
export async function pullMailbox(s) {
  for (let page = 0; page < MAX_PAGES; page++) {
    const { messages } = await api.readMailbox(PAGE);
    if (current !== s || !Array.isArray(messages)) return;
    show(s, messages);
    const acknowledged = await acknowledgeShown(s);
    if (messages.length < PAGE || !acknowledged) return;
  }
}

/** A message pushed by the socket: shown at once, acknowledged once shown. */
export function onDirectMessage(s, message) {
  if (show(s, [message]).length) acknowledgeShown(s).catch(report);
}

/** Back to the tab: what arrived while it was hidden is on screen, so it counts as shown now. */
export function whenMailboxShown(s) {
  acknowledgeShown(s).catch(report);
}

function show(s, messages) {
  const added = s.state.direct.add(messages);
  if (added.length) ui.renderMailbox(s.state);
  return added;
}

/** True if everything shown is acknowledged now; never while the tab is hidden, since nothing was seen. */
async function acknowledgeShown(s) {
  if (current !== s || document.hidden) return false;
  const upTo = s.state.direct.toAck();
  if (!upTo) return true;
  // Once acknowledged, this tab's copy is the only one left: it is written down first, not a
  // second later, so a reload in between cannot lose it.
  s.state.direct.keepNow();
  try {
    await api.acknowledgeMailbox(upTo);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      // An id this server never handed out (it started afresh since this tab kept it): nothing to drop.
      s.state.direct.noteAcknowledged(upTo);
    } else if (!isTransient(error)) {
      report(error);
    }
    return false;
  }
  if (current !== s) return false;
  s.state.direct.noteAcknowledged(upTo);
  return true;
}
