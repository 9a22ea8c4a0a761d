package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.DomainException;

import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a call came to: its value (null for a void call), or the type of the domain's refusal.
 * Anything else thrown is a bug and fails the test where it happens.
 */
record Outcome(Object value, Class<? extends DomainException> rejection) {

    static Outcome of(Supplier<?> call) {
        try {
            return new Outcome(call.get(), null);
        } catch (DomainException e) {
            return new Outcome(null, e.getClass());
        }
    }

    static Outcome ofVoid(Runnable call) {
        return of(() -> {
            call.run();
            return null;
        });
    }

    static void expectSame(String context, Outcome reference, Outcome store) {
        assertThat(store).as("after %s%n the aggregate answered %s%n but the store answered %s",
                context, reference, store).isEqualTo(reference);
    }

    boolean rejected() {
        return rejection != null;
    }

    @Override
    public String toString() {
        return rejected() ? "a refusal, " + rejection.getSimpleName() : String.valueOf(value);
    }
}
