package dev.pigeonhole.domain.model;

/**
 * Every way the domain says no. Sealed, so an adapter that maps errors to its own answers (HTTP
 * status, exit code) can switch over all of them and the compiler tells it when one is added.
 *
 * <p>Rejections carry no stack trace: they are answers, not bugs, and a busy server should not pay
 * for walking the stack each time a non-member tries to send.
 */
public abstract sealed class DomainException extends RuntimeException
        permits InvalidIdException, InvalidInputException, UnknownChatException, ChatAlreadyExistsException,
        NotAMemberException, ChatFullException, MailboxFullException, RateLimitedException,
        StoreUnavailableException, NotDurableException, NoInvitationException, TooManyChatsException {

    protected DomainException(String message) {
        super(message, null, false, false);
    }

    protected DomainException(String message, Throwable cause) {
        super(message, cause);
    }
}
