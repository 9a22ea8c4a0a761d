package dev.pigeonhole.archfixture.usecases.domain.port.out;

/** A driven port the broken route below calls directly. */
public interface Things {
    void store(String thing);
}
