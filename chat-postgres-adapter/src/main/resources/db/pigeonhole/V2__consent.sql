-- Consent (docs/DESIGN.md §8): who may reach whom, and how much of a mailbox strangers may hold.

-- Whether a held message came from a sender sharing no chat with the owner: the Mailbox
-- aggregate counts these against the strangers' share, and they leave with their rows when the
-- owner acknowledges them. Every message kept before this migration came from before the rule.
alter table mailbox_messages add column from_stranger boolean not null default false;
-- A delivery reads the strangers' ids under the owner's lock; most messages are not theirs.
create index mailbox_messages_from_strangers on mailbox_messages (owner, id) where from_stranger;

-- Each user's Consent, kept whole under a version that every replace moves on by one, so a write
-- lands only over the version it read (compare and swap) and the rules stay in the aggregate. No
-- row is the empty consent at version 0. Invitations are parallel arrays, one element each,
-- oldest first, as the snapshot holds them.
create table consents (
    owner                   text primary key,
    version                 bigint   not null check (version > 0),
    -- null: the user chose none, so the server's default applies
    add_policy              text,
    blocked                 text[]   not null,
    invitation_chats        text[]   not null,
    invitation_inviters     text[]   not null,
    invitation_join_points  bigint[] not null,
    invitation_members      int[]    not null,
    invitation_at_millis    bigint[] not null,
    check (cardinality(invitation_inviters) = cardinality(invitation_chats)
       and cardinality(invitation_join_points) = cardinality(invitation_chats)
       and cardinality(invitation_members) = cardinality(invitation_chats)
       and cardinality(invitation_at_millis) = cardinality(invitation_chats))
);
