package dev.pigeonhole.archfixture.testscope.app;

import dev.pigeonhole.archfixture.testscope.testsupport.HandDrivenClock;

import java.time.InstantSource;

/** Broken on purpose: the composition root wired on a clock the tests drive. */
public final class ClockedWiring {
    public InstantSource clock() {
        return new HandDrivenClock();
    }
}
