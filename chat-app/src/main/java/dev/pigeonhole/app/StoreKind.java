package dev.pigeonhole.app;

/** Which backend holds the data. Redis joins this list with its adapter. */
public enum StoreKind {
    /** Everything in this process's memory: nothing to install, nothing survives a restart. */
    MEMORY
}
