package dev.pigeonhole.archfixture.naming.domain.port.out;

/** Broken on purpose: named after the pattern, not the domain. */
public interface ThingsPort {
}
