package dev.pigeonhole.adapter.http;

/**
 * Everything the HTTP API asks of the domain: its driving ports, in the domain's chapters, and
 * nothing behind them. Each chapter is a record of its own and goes to that chapter's routes
 * alone, so whoever builds this names each part it hands over instead of counting fourteen
 * positions, and a route sees only its own use cases.
 */
public record UseCases(ChatUseCases chat, MailboxUseCases mailbox, ConsentUseCases consent, PresenceUseCases presence,
                       LiveUseCases live) {
}
